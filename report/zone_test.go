package report

import (
	"strings"
	"testing"
)

func TestLoadZone(t *testing.T) {
	if loc, err := LoadZone("Europe/Berlin"); err != nil || loc.String() != "Europe/Berlin" {
		t.Errorf("Europe/Berlin: %v, %v", loc, err)
	}
	for _, bad := range []string{"Local", "Mars/Olympus", ""} {
		if _, err := LoadZone(bad); err == nil && bad != "" {
			t.Errorf("LoadZone(%q): no error", bad)
		}
	}
	if _, err := LoadZone("Local"); err == nil || !strings.Contains(err.Error(), "Europe/Berlin") {
		t.Errorf("Local: %v", err)
	}
}
