#ifndef OPENCOREDATA_CSQLITE_SHIM_H
#define OPENCOREDATA_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }
/// Comparing texts in Foundation's `compare:` order (an `NSSortDescriptor` without a selector) on their UTF-8
/// bytes where that is safe, in C because SQLite calls a collation once per comparison and a sort makes millions.
///
/// `compare:` orders canonically equivalent texts as equal and compares decomposed code points, so the bytes alone
/// are right only around ASCII: they decide when one text is a prefix of the other (the longer follows), or when
/// the first differing bytes are both ASCII and neither is followed by a non-ASCII byte (which could be a combining
/// mark changing that character). Everything else goes to `fallback`, which compares the texts as strings.
/// `TextCollationTests` checks the whole against `NSSortDescriptor` on seeded random pairs.
typedef int (*csqlite_text_order_fallback)(void *context, int leftCount, const void *left, int rightCount,
                                           const void *right);

/// A text-order collation's argument: the comparison for what the bytes do not decide, and its context.
typedef struct {
    csqlite_text_order_fallback fallback;
    void *context;
} csqlite_text_order;

static inline int csqlite_text_order_compare(void *argument, int leftCount, const void *left, int rightCount,
                                             const void *right) {
    const unsigned char *l = (const unsigned char *)left, *r = (const unsigned char *)right;
    int count = leftCount < rightCount ? leftCount : rightCount;
    int index = 0;
    while (index < count && l[index] == r[index]) index++;
    if (index == count) return leftCount == rightCount ? 0 : (leftCount < rightCount ? -1 : 1);
    unsigned char a = l[index], b = r[index];
    int decided = a < 0x80 && b < 0x80
        && !(index + 1 < leftCount && l[index + 1] >= 0x80)
        && !(index + 1 < rightCount && r[index + 1] >= 0x80);
    if (decided) return a < b ? -1 : 1;
    const csqlite_text_order *order = (const csqlite_text_order *)argument;
    return order->fallback(order->context, leftCount, left, rightCount, right);
}

/// The SQL function `f(value)`: 1 when `value` is text of ASCII characters other than NUL, or not text at all;
/// else 0. Written in C because it runs once per row of a column scan.
static inline void csqlite_plain_ascii_function(sqlite3_context *context, int argumentCount, sqlite3_value **arguments) {
    (void)argumentCount;
    if (sqlite3_value_type(arguments[0]) != SQLITE_TEXT) { sqlite3_result_int(context, 1); return; }
    const unsigned char *text = sqlite3_value_text(arguments[0]);
    int count = sqlite3_value_bytes(arguments[0]);
    for (int index = 0; index < count; index++) {
        if (text[index] == 0 || text[index] >= 0x80) { sqlite3_result_int(context, 0); return; }
    }
    sqlite3_result_int(context, 1);
}
#endif
