package wayback_test

import (
	"fmt"
	"log"

	"github.com/repaudit/repaudit/wayback"
)

func Example() {
	q := wayback.Query{URL: "example.com/robots.txt", From: "2020"}
	fmt.Println(q.At("https://web.archive.org"))

	answer := `[["timestamp","original","statuscode","digest"],
["20200101000000","https://example.com/robots.txt","200","AAAA"],
["20210601000000","http://example.com:80/robots.txt","503","BBBB"]]`
	caps, notes, err := wayback.ParseCDX([]byte(answer))
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range caps {
		fmt.Println(c.Time.Format("2006-01-02"), c.Status, wayback.RawURL("https://web.archive.org", c.Timestamp, c.Original))
	}
	fmt.Println(len(notes), "rows skipped")
	// Output:
	// https://web.archive.org/cdx/search/cdx?url=example.com%2Frobots.txt&output=json&fl=timestamp,original,statuscode,digest&collapse=digest&gzip=false&from=2020
	// 2020-01-01 200 https://web.archive.org/web/20200101000000id_/https://example.com/robots.txt
	// 2021-06-01 503 https://web.archive.org/web/20210601000000id_/http://example.com:80/robots.txt
	// 0 rows skipped
}
