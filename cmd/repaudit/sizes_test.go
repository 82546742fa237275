package main

import "testing"

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"100000", 100000, true},
		{"512KiB", 512 << 10, true},
		{"1 MiB", 1 << 20, true},
		{"2K", 2 << 10, true},
		{"1.5GB", 1.5e9, true},
		{"1TiB", 1 << 40, true},
		{"3kB", 3000, true},
		{" 7B ", 7, true},
		{"0", 0, false},
		{"-1", 0, false},
		{"1XB", 0, false},
		{"MiB", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseSize(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseSize(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
