package bots

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/repaudit/repaudit/internal/linecap"
	"github.com/repaudit/repaudit/internal/typo"
)

// MaxIdentifyLine caps one input line of IdentifyAll; a longer line is
// a result with an error and is skipped.
const MaxIdentifyLine = 1 << 20

// IdentifyAll identifies the User-Agent of each line of r (IdentifyLine)
// in order and writes one result a line to w: JSON lines, or with text
// the tab-separated lines of WriteText. A line that cannot be used is a
// result with Error, and onError (nil: not told) gets its number and
// error. It returns how many such lines there were; err is a failure to
// read r (a *linecap.ReadError), to write w, or ctx.Err(), after writing
// the results so far.
func (c *Catalog) IdentifyAll(ctx context.Context, r io.Reader, w io.Writer, text bool, onError func(int64, error)) (bad int, err error) {
	err = linecap.Serve(ctx, r, w, MaxIdentifyLine, func(n int64, line []byte, tooLong bool, out *linecap.Out) error {
		res, perr := c.IdentifyLine(line)
		if tooLong {
			perr = fmt.Errorf("line longer than %d bytes", MaxIdentifyLine)
			res = Identification{Error: perr.Error()}
		}
		if perr != nil {
			bad++
			if onError != nil {
				onError(n, perr)
			}
		}
		if text {
			return res.WriteText(out)
		}
		return out.JSON(res)
	})
	return bad, err
}

// WriteText writes r as one line of "bots identify --text": agent,
// identified_by, rule, matched and the User-Agent (or the error),
// separated by tabs; "-" stands for an empty field.
func (r Identification) WriteText(w io.Writer) error {
	f := func(s string) string {
		if s == "" {
			return "-"
		}
		return oneLine(s)
	}
	last := r.UserAgent
	if r.Error != "" {
		last = "error: " + r.Error
	}
	_, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", f(r.Agent), f(r.IdentifiedBy), f(r.Rule), f(r.Matched), f(last))
	return err
}

// oneLine keeps a catalog or input string from breaking a line or a
// table.
func oneLine(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}

// WriteTable writes the catalog as "bots list" shows it: a header naming
// the data it was built from and the files merged over it, then one row
// a bot.
func (c *Catalog) WriteTable(w io.Writer, merged []string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# crawler-user-agents %s (npm) and repaudit's overlay\n", c.DataVersions().CrawlerUserAgents)
	for _, f := range merged {
		fmt.Fprintf(bw, "# merged: %s\n", f)
	}
	fmt.Fprintf(bw, "# %d bots\n", c.Len())
	tw := tabwriter.NewWriter(bw, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "TOKEN\tROBOTS TOKEN\tOPERATOR\tCATEGORY\tFLAGS\tIP LISTS")
	for _, b := range c.Bots() {
		op := b.Operator
		if op == "" {
			op = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\n", oneLine(b.Token), oneLine(b.GroupToken()), oneLine(op), b.Category, strings.Join(b.Flags(), ","), len(b.IPRangesURLs))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return bw.Flush()
}

// ListedData is the "data" member of "bots list --json": the version of
// the maintained data the catalog was built from and the files merged
// over it.
type ListedData struct {
	CrawlerUserAgents string   `json:"crawler_user_agents"`
	Files             []string `json:"bots_files,omitempty"`
}

// WriteJSON writes the catalog as "bots list --json" shows it: one
// indented document with its data versions, the files merged over it
// and every bot (Listing).
func (c *Catalog) WriteJSON(w io.Writer, merged []string) error {
	doc := struct {
		Data ListedData `json:"data"`
		Bots []Listed   `json:"bots"`
	}{Data: ListedData{CrawlerUserAgents: c.DataVersions().CrawlerUserAgents, Files: merged}, Bots: c.Listing()}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// NearTokens names up to max catalog tokens close to tok, closest first
// (typo.Near: the same but for case, a prefix either way, or a small edit
// distance), for "did you mean" hints.
func (c *Catalog) NearTokens(tok string, max int) []string {
	tokens := make([]string, 0, c.Len())
	for _, b := range c.Bots() {
		tokens = append(tokens, b.Token)
	}
	return typo.Near(tok, tokens, max)
}
