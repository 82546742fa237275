package accesslog

import "strings"

// Amazon S3 server access logs: space-separated fields, some bracketed or
// double-quoted, in a fixed order (newer fields are appended at the end):
//
//	bucket_owner bucket [time] remote_ip requester request_id operation
//	key "request_uri" http_status error_code bytes_sent object_size
//	total_time turn_around_time "referer" "user_agent" version_id host_id
//	signature_version cipher_suite authentication_type host_header
//	tls_version ...
//
// Operations S3 performs itself (BATCH.DELETE.OBJECT, lifecycle
// transitions) log "-" as the request: those lines are reported
// (CodeNotRequest), not judged. The host is the Host header when logged;
// for website-endpoint operations (WEBSITE.*) without it, the bucket,
// which website buckets are named after.

const (
	s3Bucket     = 1
	s3Time       = 2
	s3RemoteIP   = 3
	s3Operation  = 6
	s3Request    = 8
	s3Status     = 9
	s3BytesSent  = 11
	s3Referer    = 15
	s3UserAgent  = 16
	s3HostHeader = 22
	s3Fields     = 23
	s3MinFields  = s3BytesSent + 1
)

// isS3Line reports whether a line starts like an S3 server access log
// line: owner, bucket, [time], remote IP (or "-"), requester, request id,
// and an operation such as REST.GET.OBJECT.
func isS3Line(s string) bool {
	_, i := token(s, 0)
	_, i = token(s, i)
	i = skipSpace(s, i)
	if i >= len(s) || s[i] != '[' {
		return false
	}
	end := strings.IndexByte(s[i:], ']')
	if end < 0 {
		return false
	}
	if _, ok := parseCLFTime(s[i+1 : i+end]); !ok {
		return false
	}
	i += end + 1
	ip, i := token(s, i)
	if ip != "-" && !parseIP(ip).IsValid() {
		return false
	}
	_, i = token(s, i)
	_, i = token(s, i)
	op, _ := token(s, i)
	return strings.Count(op, ".") >= 2 && strings.ToUpper(op) == op
}

func parseS3(r *Reader, s string) bool {
	f := &r.fetch
	var fields [s3Fields]string
	n, i := 0, 0
	for n < s3Fields {
		i = skipSpace(s, i)
		if i >= len(s) {
			break
		}
		if s[i] == '[' {
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				break
			}
			fields[n] = s[i+1 : i+end]
			i += end + 1
		} else {
			v, j, ok := field(s, i)
			if !ok {
				break
			}
			fields[n], i = v, j
		}
		n++
	}
	if n < s3MinFields {
		return r.fail(CodeUnparsedLine, "too few S3 access log fields", s)
	}
	t, ok := r.clfTime.parse(fields[s3Time])
	if !ok {
		return r.fail(CodeBadTime, "time is not [dd/Mon/yyyy:hh:mm:ss +zzzz]", s)
	}
	if absent(fields[s3Request]) {
		return r.notRequest("S3 operation "+fields[s3Operation]+" without an HTTP request", s)
	}
	f.Time = t
	f.ClientIP = parseIP(fields[s3RemoteIP])
	host := ""
	if n > s3HostHeader && !absent(fields[s3HostHeader]) {
		host = fields[s3HostHeader]
	} else if strings.HasPrefix(fields[s3Operation], "WEBSITE.") {
		host = fields[s3Bucket]
	}
	f.Host, f.Scheme = normHost(host, "")
	addHeader(f, "Host", f.Host)
	r.setRequest(f, fields[s3Request], s)
	if n > s3UserAgent && !absent(fields[s3UserAgent]) {
		f.UserAgent = fields[s3UserAgent]
	}
	if n > s3Referer && !absent(fields[s3Referer]) {
		f.Referer = fields[s3Referer]
	}
	addHeader(f, "User-Agent", f.UserAgent)
	addHeader(f, "Referer", f.Referer)
	return r.finish(f, fields[s3Status], fields[s3BytesSent], s)
}
