package evaluate

import "unsafe"

// strAddr names a string by the address and length of its bytes. The
// readers and the catalog make each repeated value once (the fetch
// decoder's and the UA cache's strings, the catalog's tokens), so a
// Judger's or a ViewTracker's direct-mapped table can find such a string
// by its strAddr without hashing or comparing its bytes: two strings
// with the same address and length are equal, strings being immutable.
// A table slot that holds a strAddr keeps the bytes alive, so their
// address is not reused for another string while the slot names it.
type strAddr struct {
	p *byte
	n int
}

// addrOf returns the strAddr of s. The address of an empty string is
// unspecified: set reports false for it where it is nil, and tables do
// not keep such keys.
func addrOf(s string) strAddr { return strAddr{unsafe.StringData(s), len(s)} }

// set reports whether k names the bytes of a string.
func (k strAddr) set() bool { return k.p != nil }

// bits mixes the address and the length, for slotIn.
func (k strAddr) bits() uintptr { return uintptr(unsafe.Pointer(k.p)) ^ uintptr(k.n)<<4 }

// slotIn maps address bits u to a slot of a table of slots entries (a
// power of two); the low bits of an address are its alignment.
func slotIn(u uintptr, slots int) uintptr { return (u>>4 ^ u>>12) & uintptr(slots-1) }
