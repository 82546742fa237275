// Package accesslog reads web server and CDN access logs as a stream of
// event.Fetch values: Apache/nginx combined, common and vhost_combined,
// nginx JSON, Caddy JSON, AWS CloudFront and ALB, Cloudflare Logpush,
// Fastly JSON and IIS/W3C extended logs, plain, gzip or bzip2 compressed.
//
// (Usage documentation follows with the implementation.)
package accesslog
