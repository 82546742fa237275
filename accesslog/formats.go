package accesslog

import "strings"

// The format table: one row per format, read by Formats, ParseFormat,
// NewReader (the parser), Detect and Closest (the sniffers) and
// Splittable. A new format is its parser's file plus one row here.
//
// The rows are in the fixed order of Formats, which is also the order
// Detect breaks ties in and the order the text sniffers are tried in.

// formatRow describes one format.
type formatRow struct {
	format Format
	// aliases are other names ParseFormat accepts, in its normal form
	// (lower case, '-' for '_').
	aliases []string
	// parse reads one line into r.fetch; false when the line was
	// reported and skipped.
	parse func(r *Reader, line string) bool
	// sniff reports whether a text line (not a JSON object, not a
	// directive) is one of this format's. The CLF family has none:
	// classifyCLF, tried after every sniffer, tells its three formats
	// apart.
	sniff func(line string) bool
	// jsonKeys are object keys that vote for this format when Detect
	// classifies a JSON line (classifyJSON weighs the votes);
	// jsonPrefixes vote for it too.
	jsonKeys, jsonPrefixes []string
	// fields is set for the W3C extended family: a "#Fields:" directive
	// names the columns of the lines after it, so '#' lines are
	// directives, not comments, and a line cannot be read without the
	// lines before it.
	fields bool
	// zeroCopy is set when the parser may read the line in place
	// (Reader.detach copies what the fetch keeps).
	zeroCopy bool
}

var formatTable = []formatRow{
	{format: Combined, aliases: []string{"nginx", "apache"}, parse: parseCLF, zeroCopy: true},
	{format: Common, aliases: []string{"clf"}, parse: parseCLF, zeroCopy: true},
	{format: VhostCombined, parse: parseVhost, zeroCopy: true},
	{format: NginxJSON, parse: parseNginxJSON, jsonKeys: []string{"remote_addr", "time_local", "time_iso8601",
		"request_uri", "body_bytes_sent", "http_user_agent", "http_referer", "http_host", "msec", "request_time"}},
	{format: CaddyJSON, aliases: []string{"caddy"}, parse: parseCaddy,
		jsonKeys: []string{"ts", "logger", "msg", "resp_headers", "duration", "bytes_read", "user_id"}},
	{format: CloudFront, parse: parseW3C, fields: true},
	// "elb" names ALB for compatibility; its parser reads classic ELB
	// lines too.
	{format: ALB, aliases: []string{"elb", "aws-alb"}, parse: parseALB, sniff: isALBLine},
	{format: CloudflareJSON, aliases: []string{"cloudflare"}, parse: parseCloudflare,
		jsonKeys: []string{"ClientIP", "RayID", "VerifiedBotCategory"}, jsonPrefixes: []string{"ClientRequest", "Edge"}},
	{format: FastlyJSON, aliases: []string{"fastly"}, parse: parseFastly, jsonKeys: []string{"client_ip",
		"response_status", "request_user_agent", "response_body_size", "request_referer", "fastly_server", "response_reason", "is_tls"}},
	{format: W3C, aliases: []string{"iis", "w3c-extended"}, parse: parseW3C, fields: true},
	{format: ELBClassic, aliases: []string{"classic-elb", "aws-elb"}, parse: parseELB, sniff: isELBLine},
	{format: S3, aliases: []string{"aws-s3", "s3-access"}, parse: parseS3, sniff: isS3Line},
	{format: HAProxy, parse: parseHAProxy, sniff: isHAProxyLine},
	{format: TraefikJSON, aliases: []string{"traefik"}, parse: parseTraefik, jsonKeys: []string{"ClientHost", "ClientAddr",
		"RequestMethod", "RequestPath", "RequestHost", "DownstreamStatus", "DownstreamContentSize", "StartUTC", "StartLocal",
		"RouterName", "entryPointName", "OriginStatus"}},
	{format: MatomoJSON, aliases: []string{"matomo"}, parse: parseMatomoJSON,
		jsonKeys: []string{"ip", "path", "user_agent", "referrer", "length", "date", "idsite", "generation_time_milli"}},
}

// allFormats is the format column of formatTable.
var allFormats = func() []Format {
	out := make([]Format, len(formatTable))
	for i, r := range formatTable {
		out[i] = r.format
	}
	return out
}()

// jsonKeyVotes maps every row's jsonKeys to its format.
var jsonKeyVotes = func() map[string]Format {
	m := map[string]Format{}
	for _, r := range formatTable {
		for _, k := range r.jsonKeys {
			m[k] = r.format
		}
	}
	return m
}()

// jsonVote returns the format a JSON key votes for, or "".
func jsonVote(key string) Format {
	if f, ok := jsonKeyVotes[key]; ok {
		return f
	}
	for _, r := range formatTable {
		for _, p := range r.jsonPrefixes {
			if strings.HasPrefix(key, p) {
				return r.format
			}
		}
	}
	return ""
}

// rowOf returns the table row of f, or nil when f is not a format.
func rowOf(f Format) *formatRow {
	for i := range formatTable {
		if formatTable[i].format == f {
			return &formatTable[i]
		}
	}
	return nil
}

// parserFor returns the parser of f; for an unknown format, one that
// reads nothing.
func parserFor(f Format) func(*Reader, string) bool {
	if r := rowOf(f); r != nil {
		return r.parse
	}
	return parseNothing
}

// Splittable reports whether a file of format f can be read in byte
// ranges, each starting at a line start: false for formats whose lines
// depend on a "#Fields:" directive before them.
func (f Format) Splittable() bool {
	r := rowOf(f)
	return r == nil || !r.fields
}

// hasFields reports whether f is of the W3C extended family.
func (f Format) hasFields() bool {
	r := rowOf(f)
	return r != nil && r.fields
}
