package warc_test

import (
	"fmt"
	"io"
	"log"
	"strconv"
	"strings"

	"github.com/repaudit/repaudit/warc"
)

// record writes one WARC record with the given header lines and block.
func record(block string, fields ...string) string {
	return "WARC/1.1\r\n" + strings.Join(fields, "\r\n") + "\r\nContent-Length: " +
		strconv.Itoa(len(block)) + "\r\n\r\n" + block + "\r\n\r\n"
}

func Example() {
	file := record("GET /robots.txt HTTP/1.1\r\nHost: example.com\r\nUser-Agent: ExampleBot/1.0\r\n\r\n",
		"WARC-Type: request", "WARC-Record-ID: <urn:uuid:1>", "WARC-Date: 2024-05-01T12:00:00Z",
		"WARC-Target-URI: https://example.com/robots.txt", "WARC-Concurrent-To: <urn:uuid:2>") +
		record("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\nDisallow: /private\n",
			"WARC-Type: response", "WARC-Record-ID: <urn:uuid:2>", "WARC-Date: 2024-05-01T12:00:01Z",
			"WARC-Target-URI: https://example.com/robots.txt") +
		"this line is not a record\r\n"

	r, err := warc.NewReader(strings.NewReader(file), "example.warc", warc.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err) // an I/O error: the rest of the file cannot be read
		}
		switch {
		case rec.Fetch != nil:
			f := rec.Fetch
			fmt.Println(rec.Type, f.Time.Format("15:04:05"), f.UserAgent, f.URL(), f.Status, rec.Source)
		case rec.Capture != nil:
			c := rec.Capture
			// c.Body is only valid until the next call to Next.
			fmt.Printf("%s %s %s %d %q %s\n", rec.Type, c.Time.Format("15:04:05"), c.URL, c.Status, c.Body, rec.Source)
		}
	}
	for _, p := range r.Problems() {
		fmt.Println(p.Error())
	}
	fmt.Println(r.Format(), r.Compression())
	// Output:
	// request 12:00:00 ExampleBot/1.0 https://example.com/robots.txt 200 example.warc@0
	// response 12:00:01 https://example.com/robots.txt 200 "User-agent: *\nDisallow: /private\n" example.warc@277
	// example.warc@524: warc-garbage: skipped 27 bytes that are not a record
	// warc none
}
