package accesslog

// Temporary: parsers land in the next commits.

type clfTimeCache struct{}
type dateCache struct{}
type w3cState struct{}

func notYet(r *Reader, line string) bool {
	return r.fail(CodeUnparsedLine, "format not implemented yet", line)
}

var (
	parseCLF        = notYet
	parseVhost      = notYet
	parseNginxJSON  = notYet
	parseCaddy      = notYet
	parseCloudflare = notYet
	parseFastly     = notYet
	parseW3C        = notYet
	parseALB        = notYet
)

// Detect guesses the format from sample lines (blank lines excluded); ok is
// false when no format fits a clear majority of them.
func Detect(lines [][]byte) (Format, bool) { return "", false }
