package main

import (
	"embed"
	"io"
)

// The long usage texts of the subcommands, one file each, printed as
// they are (flag defaults follow where the command adds them).
//
//go:embed usage/*.txt
var usageFiles embed.FS

// usageText returns a function that writes usage/name.txt.
func usageText(name string) func(io.Writer) {
	return func(w io.Writer) {
		b, err := usageFiles.ReadFile("usage/" + name + ".txt")
		if err != nil {
			panic(err) // a missing file is a build mistake, caught by every usage test
		}
		w.Write(b)
	}
}

var (
	botsUsage          = usageText("bots")
	cardsUsage         = usageText("cards")
	dnsUsage           = usageText("dns")
	rangesUsage        = usageText("ranges")
	robotsUsage        = usageText("robots")
	robotsHistoryUsage = usageText("robots-history")
	signatureUsage     = usageText("signature")
)
