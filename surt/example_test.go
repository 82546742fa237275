package surt_test

import (
	"fmt"

	"github.com/repaudit/repaudit/surt"
)

func ExampleKey() {
	for _, u := range []string{
		"http://www.Example.com/Path?b=2&a=1",
		"https://example.com:443/path/?a=1&b=2#section",
		"http://10.0.0.1:8080/",
	} {
		k, err := surt.Key(u)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(k)
	}
	// Output:
	// com,example)/path?a=1&b=2
	// com,example)/path?a=1&b=2
	// 1,0,0,10:8080)/
}

func ExampleAppendKey() {
	var buf []byte
	for _, u := range []string{
		"https://www.example.com/news/2025/03/a-story.html",
		"http://blog.example.org/?utm_source=x&p=123",
	} {
		var err error
		buf, err = surt.AppendKey(buf[:0], u) // buf is reused: copy what must outlive the next call
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s\n", buf)
	}
	// Output:
	// com,example)/news/2025/03/a-story.html
	// org,example,blog)/?p=123&utm_source=x
}
