// Package robots parses robots.txt files and judges URLs against them, as
// RFC 9309 (the Robots Exclusion Protocol) and ACAP 1.0 describe.
package robots
