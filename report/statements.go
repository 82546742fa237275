package report

import "strings"

// splitStatements cuts SQL text into its statements at the semicolons
// outside string literals, quoted names, dollar-quoted strings and
// comments, dropping pieces that hold only spaces and comments. Each piece
// keeps its own text, comments included.
//
// It need not agree with DuckDB's parser: a locked-down DB (Open) hands
// each piece to DuckDB to prepare as exactly one statement and checks that
// statement's type before running it, so a piece this function cuts wrongly
// fails to prepare or is refused; it is never run unchecked.
func splitStatements(sql string) []string {
	var out []string
	start, code := 0, false
	cut := func(end int) {
		if code {
			out = append(out, strings.TrimSpace(sql[start:end]))
		}
		start, code = end+1, false
	}
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == ';':
			cut(i)
			i++
		case c == '-' && strings.HasPrefix(sql[i:], "--"):
			if j := strings.IndexByte(sql[i:], '\n'); j >= 0 {
				i += j + 1
			} else {
				i = len(sql)
			}
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			i = skipBlockComment(sql, i)
		case c == '\'' || c == '"':
			// E'...' strings take backslash escapes.
			backslash := c == '\'' && i > 0 && (sql[i-1] == 'e' || sql[i-1] == 'E') &&
				(i == 1 || !isNameByte(sql[i-2]))
			i = skipQuoted(sql, i, c, backslash)
			code = true
		case c == '$':
			if tag, ok := dollarTag(sql[i:]); ok {
				if j := strings.Index(sql[i+len(tag):], tag); j >= 0 {
					i += len(tag) + j + len(tag)
				} else {
					i = len(sql)
				}
				code = true
				continue
			}
			i++
			code = true
		default:
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
				code = true
			}
			i++
		}
	}
	cut(len(sql))
	return out
}

// skipBlockComment returns the index just past the block comment at i;
// block comments nest, as in PostgreSQL.
func skipBlockComment(sql string, i int) int {
	depth := 0
	for i < len(sql) {
		switch {
		case strings.HasPrefix(sql[i:], "/*"):
			depth++
			i += 2
		case strings.HasPrefix(sql[i:], "*/"):
			depth--
			i += 2
			if depth == 0 {
				return i
			}
		default:
			i++
		}
	}
	return i
}

// skipQuoted returns the index just past the literal quoted by q at i; a
// doubled quote stands for itself, and with backslash so does \q.
func skipQuoted(sql string, i int, q byte, backslash bool) int {
	for i++; i < len(sql); i++ {
		switch sql[i] {
		case '\\':
			if backslash {
				i++
			}
		case q:
			if i+1 < len(sql) && sql[i+1] == q {
				i++
				continue
			}
			return i + 1
		}
	}
	return i
}

// dollarTag returns the opening tag ($$ or $name$) of a dollar-quoted
// string at the start of s.
func dollarTag(s string) (string, bool) {
	for j := 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '$':
			return s[:j+1], true
		case c >= '0' && c <= '9' && j == 1: // $1 is a parameter
			return "", false
		case !isNameByte(c):
			return "", false
		}
	}
	return "", false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
