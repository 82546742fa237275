package extract_test

import (
	"fmt"

	"github.com/repaudit/repaudit/event"
	"github.com/repaudit/repaudit/extract"
)

func Example() {
	h := event.Header{
		{Name: "Robots-Tag", Value: "*;nosnippet, ExampleBot;noindex"},
		{Name: "X-Robots-Tag", Value: "otherbot: noindex, nofollow"},
	}
	body := []byte(`<html><head><meta name="robots" content="noarchive"></head><body>...</body></html>`)

	d := extract.FromResponse(h, body, "text/html", extract.Options{})
	for _, token := range []string{"ExampleBot", "OtherBot", "ThirdBot"} {
		e := d.For(token)
		if r, ok := e.Noindex(); ok {
			fmt.Printf("%s: noindex, because %s\n", token, r.Evidence)
		} else {
			fmt.Printf("%s: may index\n", token)
		}
	}
	if r, ok := d.For("ThirdBot").Noarchive(); ok {
		fmt.Printf("everyone: noarchive, because %s\n", r.Evidence)
	}
	// Output:
	// ExampleBot: noindex, because Robots-Tag: *;nosnippet, ExampleBot;noindex
	// OtherBot: noindex, because X-Robots-Tag: otherbot: noindex, nofollow
	// ThirdBot: may index
	// everyone: noarchive, because <meta name="robots" content="noarchive">
}
