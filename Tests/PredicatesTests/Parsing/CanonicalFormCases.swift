/// Format strings that are already in Apple's canonical form: each must print as itself.
let alreadyCanonicalFormats: [String] = [
    // Comparison operators.
    #"name == "Ann""#, "age != 3", "age < 3", "age <= 3", "age > 3", "age >= 3",
    #"name MATCHES "A.*""#, #"name LIKE "A*""#, #"name BEGINSWITH "A""#, #"name ENDSWITH "n""#,
    #"name CONTAINS "n""#, #"name IN {"Ann", "Bob"}"#, "age BETWEEN {1, 10}",
    // Options.
    #"name ==[c] "ann""#, #"name ==[d] "ann""#, #"name ==[cd] "ann""#, #"name !=[c] "ann""#,
    #"name <[c] "b""#, #"name BEGINSWITH[cd] "a""#, #"name CONTAINS[n] "a""#, #"name LIKE[c] "a?""#,
    #"name MATCHES[cd] ".*""#, #"name ENDSWITH[d] "é""#, #"name IN[c] {"a"}"#, #"tags CONTAINS[cd] "x""#,
    #"name BEGINSWITH[n] "red""#, #"name ==[cdn] "x""#,
    // Compounds and their parentheses.
    "a == 1 AND b == 2", "a == 1 OR b == 2", "a == 1 AND b == 2 AND c == 3", "a == 1 OR b == 2 OR c == 3",
    "(a == 1 AND b == 2) OR c == 3", "a == 1 AND (b == 2 OR c == 3)", "(a == 1 OR b == 2) AND (c == 3 OR d == 4)",
    "(a == 1 AND b == 2) AND c == 3", "a == 1 OR (b == 2 OR c == 3)", "NOT a == 1", "NOT (a == 1 AND b == 2)",
    "NOT (a == 1 OR b == 2)", "NOT NOT a == 1", "a == 1 AND NOT b == 2", "NOT a == 1 OR NOT b == 2",
    "TRUEPREDICATE", "FALSEPREDICATE", "TRUEPREDICATE AND FALSEPREDICATE", "NOT TRUEPREDICATE",
    "TRUEPREDICATE OR a == 1",
    // Aggregate qualifiers.
    "ANY children.age > 3", "ALL children.age > 3", "NOT ANY children.age > 3", #"ANY tags IN {"a", "b"}"#,
    "ALL scores BETWEEN {1, 5}", #"ANY children.name BEGINSWITH[cd] "a""#, "ANY scores == 1 AND ALL scores > 0",
    // Key paths, reserved words and collection operators.
    "a.b.c == 1", "#size == 1", "a.#first.#last == 1", "#in == 2", "@count == 1",
    "items.@sum.price > 10", "items.@avg.price > 10", "items.@min.price < 1", "items.@max.price > 1",
    #"items.@distinctUnionOfObjects.name CONTAINS "x""#, #"items.@unionOfObjects.name CONTAINS "x""#,
    #"items.@distinctUnionOfArrays.tags CONTAINS "x""#, #"items.@unionOfArrays.tags CONTAINS "x""#,
    #"items.@distinctUnionOfSets.tags CONTAINS "x""#, "count:(items) > 1", "count:(a.b.items) == 0",
    "_private == 1", "snake_case_key == 1", "key2 == 2", "prénom == 1",
    // SELF.
    "SELF == 1", "SELF IN {1, 2}", #"SELF BEGINSWITH "a""#, "SELF != nil",
    // Literals.
    #"name == "a\"b""#, #"name == "a\\b""#, #"name == "tab\tx""#, #"name == "line\nbreak""#, #"name == "é""#,
    #"name == "ß""#, #"name == "😀""#, #"name == "İstanbul""#, #"name == "e\#u{301}""#, #"name == """#,
    #"name == "it's""#, "a == 1.5", "a == -3", "a == -3.5", "a == 2.71828", "a == 1e+20", "a == 123456789012",
    "a == 0", "a == nil", "a IN {}", "a IN {1, 2, 3}", #"a IN {"x", "y"}"#, "a IN {{1}, {2, 3}}",
    #"a IN {1, "x", nil}"#, "a == 9.2e-05", "a == 0.1",
    // Variables.
    "a == $x", "a IN $list", "$x.name == 1", "$x == $y", "a BETWEEN {$low, $high}",
    // Arithmetic.
    "a + 1 == 2", "a - 1 == 2", "a * 2 == 4", "a / 2 == 1", "a ** 2 == 4", "a + b * c == 1", "(a + b) * c == 1",
    "a - (b - c) == 1", "a - b - c == 1", "2 ** 3 ** 2 == 512", "(2 ** 3) ** 2 == 64", "-a == 1", "-(a + b) == 1",
    "a + -1 == 0", "-5 == a", "a & 3 == 3", "a | 4 == 5", "a ^ 1 == 0", "a * (b + c) / d == 1", "a / (b * c) == 1",
    "-a.b == 1", "-2 ** 2 == 4", "a + b + c + d == 10",
    // Functions.
    "sum:(items.price) > 10", "average:(items.price) > 1", "min:(a) > 1", "max:(a) < 1", "median:(a) == 1",
    "mode:(a) == 1", "stddev:(a) == 1", "sqrt:(a) == 2", "log:(a) == 1", "ln:(a) == 1", "exp:(a) == 1",
    "floor:(a) == 1", "ceiling:(a) == 1", "abs:(a) == 1", "trunc:(a) == 1", #"uppercase:(name) == "A""#,
    #"lowercase:(name) == "a""#, #"canonical:(name) == "a""#, "now() > d", "random() < 1", "random:(a) == 1", "randomn:(10) < 10",
    "modulus:by:(a, 3) == 1", "sum:(1, 2, 3) == 6", "length:(name) == 3", "onesComplement:(a) == -1",
    "leftshift:by:(a, 1) == 2", "rightshift:by:(a, 1) == 2", #"noindex:(name) == "a""#,
    "distanceToLocation:fromLocation:(a, b) < 100", "sum:(items.price) + 1 > count:(items)",
    #"FUNCTION(name, "lowercaseString") == "a""#, #"FUNCTION(SELF, "count") == 1"#,
    #"FUNCTION(a, "stringByAppendingString:", "x") == "ax""#,
    #"CAST(a, "NSNumber") == 1"#, #"d > CAST(742000000.5, "NSDate")"#, #"d > CAST(0, "NSDate")"#,
    #"d > CAST("742000000", "NSDate")"#, #"CAST(a + 1, "NSString") == "2""#, #"d < CAST(-31622400, "NSDate")"#,
    #"TERNARY(a > 1, "big", "small") == "big""#, "TERNARY(a > 1 AND b < 2, a, b) == 1",
    // SUBQUERY and index expressions.
    "SUBQUERY(children, $c, $c.age > 5).@count > 0", #"SUBQUERY(children, $c, $c.age > 5 AND name == "x")[SIZE] > 0"#,
    "SUBQUERY(a.b, $x, ANY $x.c == 1).@count == 0", "SUBQUERY(children, $c, SUBQUERY($c.toys, $t, $t.price > 1).@count > 0).@count > 0",
    "items[FIRST] == 1", #"items[LAST].name == "a""#, "items[SIZE] == 3", "items[0] == 1", #"dict["key"] == 1"#,
    "items[FIRST][LAST] == 1", "items[a + 1] == 2", "{1, 2, 3}[1] == 2",
    // Set expressions and ANYKEY.
    "a UNION b CONTAINS 1", "a INTERSECT b CONTAINS 1", "a MINUS b CONTAINS 1", "a UNION b MINUS c CONTAINS 1",
    "a UNION (b MINUS c) CONTAINS 1", "{1, 2} UNION {3} CONTAINS 3", #"ANYKEY == "x""#,
]

/// Format strings with the canonical form Apple prints for them.
let canonicalizedFormats: [(String, String)] = [
    // Operator spellings.
    ("a = 1", "a == 1"), ("a =< 1", "a <= 1"), ("a => 1", "a >= 1"), ("a <> 1", "a != 1"), ("a=1", "a == 1"),
    ("a==1&&b!=2", "a == 1 AND b != 2"), ("a = 1 || b = 2", "a == 1 OR b == 2"), ("!(a = 1)", "NOT a == 1"),
    ("! a = 1", "NOT a == 1"), ("a = 1 && !b = 2", "a == 1 AND NOT b == 2"),
    // Case-insensitive keywords.
    (#"name beginswith "a""#, #"name BEGINSWITH "a""#), (#"name beginsWith "a""#, #"name BEGINSWITH "a""#),
    (#"name endswith 'a'"#, #"name ENDSWITH "a""#), (#"name contains 'a'"#, #"name CONTAINS "a""#),
    (#"name like 'a'"#, #"name LIKE "a""#), (#"name matches 'a'"#, #"name MATCHES "a""#),
    ("a in {1}", "a IN {1}"), ("a between {1, 2}", "a BETWEEN {1, 2}"), ("Any tags == 1", "ANY tags == 1"),
    ("any tags == 1", "ANY tags == 1"), ("all tags == 1", "ALL tags == 1"), ("SOME tags == 1", "ANY tags == 1"),
    ("NONE tags == 1", "NOT ANY tags == 1"), ("none tags == 1", "NOT ANY tags == 1"),
    ("a = 1 and b = 2", "a == 1 AND b == 2"), ("a = 1 or b = 2", "a == 1 OR b == 2"), ("not a = 1", "NOT a == 1"),
    ("truepredicate", "TRUEPREDICATE"), ("FalsePredicate", "FALSEPREDICATE"), ("self == 1", "SELF == 1"),
    ("a == true", "a == 1"), ("a == TRUE", "a == 1"), ("a == YES", "a == 1"), ("a == yes", "a == 1"),
    ("a == false", "a == 0"), ("a == FALSE", "a == 0"), ("a == NO", "a == 0"), ("a == no", "a == 0"),
    ("a == NULL", "a == nil"), ("a == null", "a == nil"), ("a == NIL", "a == nil"), ("a == Nil", "a == nil"),
    ("subquery(c, $x, $x.a == 1).@count == 0", "SUBQUERY(c, $x, $x.a == 1).@count == 0"),
    ("ternary(a == 1, 2, 3) == 2", "TERNARY(a == 1, 2, 3) == 2"), ("cast(a, 'NSNumber') == 1", #"CAST(a, "NSNumber") == 1"#),
    ("items[first] == 1", "items[FIRST] == 1"), ("items[Last] == 1", "items[LAST] == 1"), ("items[size] == 1", "items[SIZE] == 1"),
    ("a union b contains 1", "a UNION b CONTAINS 1"), ("anykey == 1", "ANYKEY == 1"),
    // Options in any case and order.
    (#"a BEGINSWITH[CD] 'x'"#, #"a BEGINSWITH[cd] "x""#), (#"a ==[dc] 'x'"#, #"a ==[cd] "x""#),
    (#"a LIKE[ c ] 'x'"#, #"a LIKE[c] "x""#), (#"a CONTAINS[N] 'x'"#, #"a CONTAINS[n] "x""#),
    (#"a =[c] 'x'"#, #"a ==[c] "x""#), (#"a <>[cd] 'x'"#, #"a !=[cd] "x""#),
    // Parentheses.
    ("((a == 1))", "a == 1"), ("(a == 1)", "a == 1"), ("((a + 1)) == 2", "a + 1 == 2"), ("(a) == (1)", "a == 1"),
    ("(a == 1) AND (b == 2)", "a == 1 AND b == 2"), ("a == 1 AND (b == 2 AND c == 3)", "a == 1 AND (b == 2 AND c == 3)"),
    ("(a + 1) * 2 > 3", "(a + 1) * 2 > 3"), ("((a + 1) * 2) > 3", "(a + 1) * 2 > 3"), ("(NOT a == 1)", "NOT a == 1"),
    ("NOT (a == 1)", "NOT a == 1"), ("(TRUEPREDICATE)", "TRUEPREDICATE"), ("a * (b) == 1", "a * b == 1"),
    ("(a - b) - c == 1", "a - b - c == 1"), ("a + (b + c) == 1", "a + (b + c) == 1"), ("2 ** (3 ** 2) == 512", "2 ** 3 ** 2 == 512"),
    // Quoting and escapes.
    ("name == 'single'", #"name == "single""#), (#"name == 'it"s'"#, #"name == "it\"s""#),
    (#"name == "a'b'c""#, #"name == "a'b'c""#), (#"name == 'a\'b'"#, #"name == "a'b""#),
    (#"name == "\u00e9""#, #"name == "é""#), (#"name == "\U00E9""#, #"name == "é""#), (#"name == "\x41""#, #"name == "A""#),
    (#"name == "\X41""#, #"name == "A""#), (#"name == "\101""#, #"name == "A""#), (#"name == "\uD83D\uDE00""#, #"name == "😀""#),
    (#"name == "\r""#, #"name == "\r""#), (#"name LIKE "a\*b""#, #"name LIKE "a\\*b""#), (#"name MATCHES "\d+""#, #"name MATCHES "\\d+""#),
    (#"name == "\u0001""#, #"name == "\u0001""#),
    // Numbers.
    ("a == 10.0", "a == 10"), ("a == 0x1F", "a == 31"), ("a == 0X1f", "a == 31"), ("a == 0o17", "a == 15"),
    ("a == 0O17", "a == 15"), ("a == 0b101", "a == 5"), ("a == 0B11", "a == 3"), ("a == 1e3", "a == 1000"),
    ("a == 1E2", "a == 100"), ("a == 9.2e-5", "a == 9.2e-05"), ("a == .5", "a == 0.5"), ("a == 1.50", "a == 1.5"),
    ("a == 1e20", "a == 1e+20"), ("a == 2.5E+3", "a == 2500"), ("a == 007", "a == 7"), ("a == - 5", "a == -5"),
    ("a == -(5)", "a == -5"), ("a == --5", "a == 5"), ("a == -0x10", "a == -16"), ("a == 0.0", "a == 0"),
    ("a == 9223372036854775807", "a == 9223372036854775807"), ("a == 9223372036854775808", "a == 9.223372036854776e+18"),
    ("a == 0x7FFFFFFFFFFFFFFF", "a == 9223372036854775807"),
    // Aggregates.
    ("a IN {1,2,3}", "a IN {1, 2, 3}"), ("a IN { 'x' , \"y\" }", #"a IN {"x", "y"}"#), ("a IN {{1},{}}", "a IN {{1}, {}}"),
    ("a IN {TRUE, NO, NULL}", "a IN {1, 0, nil}"),
    // Key paths and canonical functions.
    ("pages.@count > 1", "count:(pages) > 1"), ("a.b.@count == 0", "count:(a.b) == 0"), ("SELF.@count == 2", "@count == 2"),
    ("SELF.name == 1", "name == 1"), ("SELF.a.b == 1", "a.b == 1"), ("#first == 1", "#first == 1"), ("#IN == 1", "#IN == 1"),
    ("a.#SIZE == 1", "a.#SIZE == 1"),
    // Functions written with bare names or as selectors.
    ("sum(a) > 1", "sum:(a) > 1"), ("count(a) > 1", "count:(a) > 1"), ("average(a) > 1", "average:(a) > 1"),
    ("min(a) > 1", "min:(a) > 1"), ("max(a) > 1", "max:(a) > 1"), ("sqrt(a) > 1", "sqrt:(a) > 1"), ("abs(a) > 1", "abs:(a) > 1"),
    ("now( ) > a", "now() > a"), ("random() < 1", "random() < 1"), ("add:to:(1, 2) == 3", "1 + 2 == 3"),
    ("from:subtract:(5, 3) == 2", "5 - 3 == 2"), ("multiply:by:(5, 3) == 15", "5 * 3 == 15"),
    ("divide:by:(6, 3) == 2", "6 / 3 == 2"), ("raise:toPower:(2, 3) == 8", "2 ** 3 == 8"),
    ("bitwiseAnd:with:(a, 1) == 1", "a & 1 == 1"), ("bitwiseOr:with:(a, 1) == 1", "a | 1 == 1"),
    ("bitwiseXor:with:(a, 1) == 1", "a ^ 1 == 1"), ("objectFrom:withIndex:(items, 0) == 1", "items[0] == 1"),
    ("castObject:toType:(a, 'NSString') == '1'", #"CAST(a, "NSString") == "1""#),
    ("castObject:toType:(1, 'NSDate') < d", #"CAST(1, "NSDate") < d"#), ("add:to:(a, multiply:by:(b, c)) == 1", "a + b * c == 1"),
    ("multiply:by:(add:to:(a, b), c) == 1", "(a + b) * c == 1"), ("from:subtract:(0, a) == 1", "-a == 1"),
    ("0 - 5 == a", "0 - 5 == a"), ("CAST('5', 'NSNumber') == 5", #"CAST("5", "NSNumber") == 5"#),
    ("CAST(742000000.50, 'NSDate') < d", #"CAST(742000000.5, "NSDate") < d"#),
    // Whitespace.
    ("  a   ==\n1  ", "a == 1"), ("a\t==\t1", "a == 1"), ("a==1 AND(b==2)", "a == 1 AND b == 2"), ("#select == 1", "select == 1"), ("\r\na == 1\r\n", "a == 1"),
    ("ANY  children . age > 1", "ANY children.age > 1"), ("items [ FIRST ] == 1", "items[FIRST] == 1"),
    // A literal percent sign.
    ("name LIKE %%", #"name LIKE "%""#),
]

/// Every operator with every option: generated to check the printing of each combination.
let operatorOptionFormats: [(String, String)] = {
    let operators = [
        ("==", "=="), ("=", "=="), ("!=", "!="), ("<>", "!="), ("<", "<"), ("<=", "<="), ("=<", "<="), (">", ">"),
        (">=", ">="), ("=>", ">="), ("BEGINSWITH", "BEGINSWITH"), ("endsWith", "ENDSWITH"), ("Contains", "CONTAINS"),
        ("LIKE", "LIKE"), ("matches", "MATCHES"), ("IN", "IN"),
    ]
    let options = [("", ""), ("[c]", "[c]"), ("[d]", "[d]"), ("[cd]", "[cd]"), ("[n]", "[n]"), ("[DC]", "[cd]")]
    return operators.flatMap { spelling, canonical in
        options.map { option, canonicalOption in
            ("name \(spelling)\(option) 'Zoë'", "name \(canonical)\(canonicalOption) \"Zoë\"")
        }
    }
}()

/// All the format strings of the tables above, with their canonical forms.
let allCanonicalCases: [(String, String)] =
    alreadyCanonicalFormats.map { ($0, $0) } + canonicalizedFormats + operatorOptionFormats
