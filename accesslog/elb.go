package accesslog

// AWS Classic Load Balancer (ELB) access logs: like ALB logs without the
// leading type field and without the fields after ssl_protocol:
//
//	time elb client:port backend:port request_processing_time
//	backend_processing_time response_processing_time elb_status_code
//	backend_status_code received_bytes sent_bytes "request" "user_agent"
//	ssl_cipher ssl_protocol
//
// A TCP listener writes "- - - " as the request: such a line is not an
// HTTP request and is reported (CodeNotRequest), not judged.

const (
	elbTime       = 0
	elbClient     = 2
	elbStatus     = 7
	elbSentBytes  = 10
	elbRequest    = 11
	elbUserAgent  = 12
	elbFields     = 13
	elbMinFields  = elbRequest + 1
	elbNoRequest  = "- - - "
	elbNoRequest2 = "- - -"
)

// isELBLine reports whether a line starts like a classic ELB line: an ISO
// time, a load balancer name, then client ip:port.
func isELBLine(s string) bool {
	t, i := token(s, 0)
	if len(t) < 20 {
		return false
	}
	if _, ok := parseISOTime(t); !ok {
		return false
	}
	_, i = token(s, i)
	c, _ := token(s, i)
	return parseIPPort(c).IsValid()
}

func parseELB(r *Reader, s string) bool {
	f := &r.fetch
	var fields [elbFields]string
	n := splitFields(s, fields[:])
	if n < elbMinFields {
		return r.fail(CodeUnparsedLine, "too few ELB fields", s)
	}
	t, ok := parseISOTime(fields[elbTime])
	if !ok {
		return r.fail(CodeBadTime, "time is not ISO 8601", s)
	}
	if req := fields[elbRequest]; req == elbNoRequest || req == elbNoRequest2 {
		return r.notRequest("TCP connection (no HTTP request)", s)
	}
	f.Time = t
	f.ClientIP = parseIPPort(fields[elbClient])
	r.setRequest(f, fields[elbRequest], s)
	if n > elbUserAgent && !absent(fields[elbUserAgent]) {
		f.UserAgent = fields[elbUserAgent]
	}
	addHeader(f, "Host", f.Host)
	addHeader(f, "User-Agent", f.UserAgent)
	return r.finish(f, fields[elbStatus], fields[elbSentBytes], s)
}
