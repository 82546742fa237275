package main

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadLine(t *testing.T) {
	type got struct {
		line    string
		tooLong bool
		err     error
	}
	tests := []struct {
		name, in string
		want     []got
	}{
		{"lf and crlf", "ab\ncd\r\n", []got{{"ab", false, nil}, {"cd", false, nil}, {"", false, io.EOF}}},
		{"last line unterminated", "ab\ncd", []got{{"ab", false, nil}, {"cd", false, nil}, {"", false, io.EOF}}},
		{"at the limit", "abcd\n", []got{{"abcd", false, nil}, {"", false, io.EOF}}},
		{"over the limit, then on", "abcde\r\nx\n", []got{{"", true, nil}, {"x", false, nil}, {"", false, io.EOF}}},
		{"over the limit at the end", "abcdefgh", []got{{"", true, nil}, {"", false, io.EOF}}},
		{"blank lines", "\n\r\n", []got{{"", false, nil}, {"", false, nil}, {"", false, io.EOF}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A 16-byte buffer (bufio's least) and one byte a read: lines
			// arrive in pieces.
			br := bufio.NewReaderSize(iotest.OneByteReader(strings.NewReader(tt.in)), 16)
			for i, w := range tt.want {
				line, tooLong, err := readLine(br, 4)
				if string(line) != w.line || tooLong != w.tooLong || !errors.Is(err, w.err) {
					t.Fatalf("read %d: got %q, %v, %v; want %q, %v, %v", i, line, tooLong, err, w.line, w.tooLong, w.err)
				}
			}
		})
	}
}
