package dev.vigil.client;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON for the client, which has only the JDK: {@link #write} turns maps, lists, arrays, strings, numbers, booleans,
 * null, {@link Raw} text and Instants into JSON text; {@link #parse} reads JSON into LinkedHashMap, ArrayList, String,
 * Long, BigInteger or Double, Boolean and null. Values of other types are written as their toString(), as strings.
 */
public final class Json {
    private Json() {}

    /** JSON text written as it is: a value already encoded. */
    public record Raw(String json) {}

    /** Nesting past this depth is refused by both directions: a cycle or hostile input cannot overflow the stack. */
    static final int MAX_DEPTH = 256;

    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.toString();
    }

    static void write(Object v, StringBuilder out, int depth) {
        if (depth > MAX_DEPTH) throw new IllegalArgumentException("value nests deeper than " + MAX_DEPTH + " levels (a cycle?)");
        if (v == null) out.append("null");
        else if (v instanceof Raw r) out.append(r.json());
        else if (v instanceof String s) quote(s, out);
        else if (v instanceof Boolean b) out.append(b.booleanValue());
        else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) out.append("null");
            else if (d == Math.rint(d) && Math.abs(d) < 1e15) out.append((long) d);
            else out.append(d);
        } else if (v instanceof BigDecimal bd) out.append(bd.toPlainString());
        else if (v instanceof Number n) out.append(n.toString());
        else if (v instanceof Instant i) quote(i.toString(), out);
        else if (v instanceof Map<?, ?> m) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) out.append(',');
                first = false;
                quote(String.valueOf(e.getKey()), out);
                out.append(':');
                write(e.getValue(), out, depth + 1);
            }
            out.append('}');
        } else if (v instanceof Collection<?> c) {
            out.append('[');
            boolean first = true;
            for (Object e : c) {
                if (!first) out.append(',');
                first = false;
                write(e, out, depth + 1);
            }
            out.append(']');
        } else if (v instanceof Object[] a) {
            write(List.of(a), out, depth);
        } else quote(v.toString(), out);
    }

    static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    // Control characters, and lone surrogates (not valid UTF-8), are escaped.
                    if (c < 0x20 || (Character.isSurrogate(c) && !pairedSurrogate(s, i))) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }

    private static boolean pairedSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    /** Reads one JSON value; throws IllegalArgumentException on anything that is not exactly one. */
    public static Object parse(String text) {
        Parser p = new Parser(text);
        p.space();
        Object v = p.value(0);
        p.space();
        if (p.i != text.length()) throw p.error("text after the value");
        return v;
    }

    private static final class Parser {
        final String s;
        int i;

        Parser(String s) { this.s = s; }

        IllegalArgumentException error(String what) { return new IllegalArgumentException("JSON: " + what + " at " + i); }

        void space() { while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++; }

        Object value(int depth) {
            if (depth > MAX_DEPTH) throw error("nesting too deep");
            if (i >= s.length()) throw error("unexpected end");
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    space();
                    if (peek('}')) return m;
                    for (;;) {
                        space();
                        if (i >= s.length() || s.charAt(i) != '"') throw error("expected a key");
                        String k = string();
                        space();
                        expect(':');
                        space();
                        m.put(k, value(depth + 1));
                        space();
                        if (peek('}')) return m;
                        expect(',');
                    }
                }
                case '[': {
                    i++;
                    List<Object> l = new ArrayList<>();
                    space();
                    if (peek(']')) return l;
                    for (;;) {
                        space();
                        l.add(value(depth + 1));
                        space();
                        if (peek(']')) return l;
                        expect(',');
                    }
                }
                case '"':
                    return string();
                case 't': return literal("true", Boolean.TRUE);
                case 'f': return literal("false", Boolean.FALSE);
                case 'n': return literal("null", null);
                default:
                    return number();
            }
        }

        boolean peek(char c) {
            if (i < s.length() && s.charAt(i) == c) { i++; return true; }
            return false;
        }

        void expect(char c) { if (!peek(c)) throw error("expected '" + c + "'"); }

        Object literal(String word, Object v) {
            if (!s.startsWith(word, i)) throw error("unexpected character");
            i += word.length();
            return v;
        }

        Object number() {
            int start = i;
            if (peek('-')) { /* sign */ }
            while (i < s.length() && "0123456789.eE+-".indexOf(s.charAt(i)) >= 0) i++;
            String n = s.substring(start, i);
            if (n.isEmpty() || n.equals("-")) throw error("unexpected character");
            try {
                if (n.indexOf('.') < 0 && n.indexOf('e') < 0 && n.indexOf('E') < 0) {
                    BigInteger b = new BigInteger(n);
                    return b.bitLength() < 64 ? (Object) b.longValue() : b;
                }
                return Double.parseDouble(n);
            } catch (NumberFormatException e) {
                throw error("bad number " + n);
            }
        }

        String string() {
            i++;
            StringBuilder b = new StringBuilder();
            while (i < s.length()) {
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c != '\\') { b.append(c); continue; }
                if (i >= s.length()) break;
                char e = s.charAt(i++);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        if (i + 4 > s.length()) throw error("bad \\u escape");
                        try { b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); } catch (NumberFormatException x) { throw error("bad \\u escape"); }
                        i += 4;
                    }
                    default -> throw error("bad escape");
                }
            }
            throw error("unterminated string");
        }
    }
}
