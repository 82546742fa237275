package accesslog

// AWS Application Load Balancer access logs: space-separated fields, some
// double-quoted, in a fixed order:
//
//	type time elb client:port target:port request_processing_time
//	target_processing_time response_processing_time elb_status_code
//	target_status_code received_bytes sent_bytes "request" "user_agent"
//	ssl_cipher ssl_protocol target_group_arn "trace_id" "domain_name"
//	"chosen_cert_arn" matched_rule_priority request_creation_time ...
//
// The request is "METHOD scheme://host:port/path?query HTTP/x.y".

const (
	albType         = 0
	albTime         = 1
	albClient       = 3
	albELBStatus    = 8
	albSentBytes    = 11
	albRequest      = 12
	albUserAgent    = 13
	albCreationTime = 21
	albFieldsWanted = 22
	albMinFields    = albUserAgent + 1
)

func parseALB(r *Reader, s string) bool {
	if t, _ := token(s, 0); !isALBType(t) && isELBLine(s) {
		return parseELB(r, s) // "--log-format elb" on a classic ELB log
	}
	f := &r.fetch
	var fields [albFieldsWanted]string
	if splitFields(s, fields[:]) < albMinFields {
		return r.fail(CodeUnparsedLine, "too few ALB fields", s)
	}
	t, ok := parseISOTime(fields[albCreationTime])
	if !ok {
		if t, ok = parseISOTime(fields[albTime]); !ok {
			return r.fail(CodeBadTime, "time is not ISO 8601", s)
		}
	}
	f.Time = t
	f.ClientIP = parseIPPort(fields[albClient])
	switch fields[albType] {
	case "https", "h2", "grpcs", "wss":
		f.Scheme = "https"
	case "http", "ws":
		f.Scheme = "http"
	}
	r.setRequest(f, fields[albRequest], s)
	if !absent(fields[albUserAgent]) {
		f.UserAgent = fields[albUserAgent]
	}
	addHeader(f, "Host", f.Host)
	addHeader(f, "User-Agent", f.UserAgent)
	return r.finish(f, fields[albELBStatus], fields[albSentBytes], s)
}
