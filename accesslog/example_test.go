package accesslog_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/repaudit/repaudit/accesslog"
)

func Example() {
	log := `192.0.2.10 - - [01/May/2024:14:00:00 +0200] "GET /private/report.pdf HTTP/1.1" 200 5120 "-" "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"
this line is not a log line
2001:db8::7 - - [01/May/2024:14:00:05 +0200] "GET /robots.txt HTTP/1.1" 200 68 "-" "Googlebot/2.1"
`
	r, err := accesslog.NewReader(strings.NewReader(log), "access.log", accesslog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("format:", r.Format())
	for {
		f, err := r.Next()
		for _, p := range r.Problems() {
			fmt.Println("problem:", p.Source, p.Code)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(f.Time.Format("2006-01-02T15:04:05Z"), f.ClientIP, f.Method, f.Target, f.Status, f.UserAgent)
	}
	// Output:
	// format: combined
	// 2024-05-01T12:00:00Z 192.0.2.10 GET /private/report.pdf 200 Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)
	// problem: access.log:2 log-unparsed-line
	// 2024-05-01T12:00:05Z 2001:db8::7 GET /robots.txt 200 Googlebot/2.1
}
