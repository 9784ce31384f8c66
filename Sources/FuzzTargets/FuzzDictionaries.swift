/// Tokens of each input format, which the mutator substitutes and inserts: a byte-level mutation rarely spells
/// `SUBQUERY(` or `<relationship`, and the paths behind such tokens are where parsers go wrong.
enum FuzzDictionaries {
    static let predicate: [[UInt8]] = [
        "==", "!=", "<", ">=", "=<", "<>", "&&", "||", "!", "AND", "OR", "NOT", "ANY", "ALL", "SOME", "NONE", "IN",
        "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "[c]", "[cd]", "[n]", "[l]", "SUBQUERY(",
        "FUNCTION(", "CAST(", "TERNARY(", "$x", "$", "%@", "%K", "%d", "%f", "%%", "@count", "@sum.", "@avg.",
        "@distinctUnionOfObjects.", "SELF", "nil", "NULL", "TRUEPREDICATE", "FALSEPREDICATE", "YES", "NO", "{", "}",
        "(", ")", "[", "]", "[FIRST]", "[LAST]", "[SIZE]", ".", ",", "\"", "'", "\\", "\\u", "\\x", "\\0", "\\U0001F600",
        "1e308", "-1e-308", "0x", "0b", "0o", "9223372036854775808", "+", "-", "*", "/", "**", "ANYKEY", "#", ":=",
        "now()", "random()", "UTI-CONFORMS-TO", "DISTINCT", "UNION", "INTERSECT", "MINUS", "é", "日本", "\u{202E}",
    ].map { Array($0.utf8) }

    static let xml: [[UInt8]] = [
        "<", ">", "</", "/>", "<?xml version=\"1.0\"?>", "<plist version=\"1.0\">", "</plist>", "<dict>", "</dict>",
        "<key>", "</key>", "<array>", "</array>", "<string>", "</string>", "<integer>", "</integer>", "<real>",
        "<data>", "<date>", "<true/>", "<false/>", "&amp;", "&lt;", "&#", "&#x", ";", "<![CDATA[", "]]>", "<!--",
        "-->", "<!DOCTYPE", "<model", "<entity ", "<attribute ", "<relationship ", "<fetchedProperty ", "<elements>",
        "<element ", "<fetchIndex ", "<fetchIndexElement ", "<uniquenessConstraints>", "<configuration ",
        "<memberEntity ", "<userInfo>", "<entry ", "<fetchRequest ", "<compoundIndexes>", "<composite ",
        "name=\"", "attributeType=\"", "destinationEntity=\"", "inverseName=\"", "inverseEntity=\"", "toMany=\"YES\"",
        "maxCount=\"", "minCount=\"", "parentEntity=\"", "representedClassName=\"", "optional=\"YES\"",
        "deletionRule=\"Cascade\"", "ordered=\"YES\"", "derivationExpression=\"", "defaultValueString=\"",
        "predicateString=\"", "type=\"", "\"", " ", "=", "Integer 64", "Transformable", "Binary", "Date", "Decimal",
        "String", "Boolean", "UUID", "URI", "Composite", "Undefined",
    ].map { Array($0.utf8) }

    /// Markers, lengths and object references of `bplist00`, and the archive keys the readers look for.
    static let binaryPropertyList: [[UInt8]] = [
        Array("bplist00".utf8), [0x00], [0x08], [0x09], [0x0F], [0x10], [0x13], [0x1F], [0x23], [0x33], [0x40], [0x4F, 0x10],
        [0x50], [0x5F], [0x60], [0x6F], [0x80], [0x8F], [0xA0], [0xAF], [0xD0], [0xDF], [0xFF], [0x00, 0x00, 0x00, 0x00],
        [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x08, 0x08], [0x01, 0x01],
        Array("$archiver".utf8), Array("NSKeyedArchiver".utf8), Array("$objects".utf8), Array("$top".utf8),
        Array("$class".utf8), Array("$classname".utf8), Array("NS.keys".utf8), Array("NS.objects".utf8),
        Array("NSEntities".utf8), Array("NSProperties".utf8), Array("NSEntityDescription".utf8),
        Array("NSAttributeDescription".utf8), Array("NSRelationshipDescription".utf8), Array("root".utf8),
    ]

    static let text: [[UInt8]] = [
        [0x1B], Array("\u{1B}[31m".utf8), Array("\u{1B}]0;t\u{07}".utf8), [0x00], [0x7F], [0xC2, 0x85], [0xC2, 0x9B],
        Array("\u{202E}".utf8), Array("\u{200B}".utf8), Array("\u{200D}".utf8), Array("\u{FEFF}".utf8),
        Array("👩‍👩‍👧".utf8), Array("日本".utf8), [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        Array("\"".utf8), Array("'".utf8), Array("\\".utf8), Array(" ".utf8), Array("Z_".utf8), Array("Z_PK".utf8),
    ]

    /// The XML store's elements and attribute spellings.
    static let xmlStore: [[UInt8]] = [
        "<database>", "</database>", "<databaseInfo>", "<version>134481920</version>", "<UUID>", "<nextObjectID>",
        "<metadata>", "</metadata>", "<object type=\"", "\" id=\"z", "</object>", "<attribute name=\"", "<relationship name=\"",
        "\" type=\"", "destination=\"", "idrefs=\"", "z1 z2", "z0", "z99999999999999999999", "int16", "int32", "int64",
        "decimal", "double", "float", "string", "bool", "date", "binary", "uuid", "uri", "transformable", "0/0", "1/1",
        "PERSON", "PET", "name", "pets", "owner", "&#13;", "ß", "SS",
    ].map { Array($0.utf8) }

    /// The binary store's header words and archive keys.
    static let binaryStore: [[UInt8]] = [
        Array("CoreData".utf8), [0, 0, 0, 1], [0x08, 0x04, 0x08, 0x00], [0, 0, 0, 0, 0, 0, 0, 64],
        Array("mapData".utf8), Array("metadata".utf8), Array("NSDictionaryMapNode".utf8), Array("NSStoreMapNode".utf8),
        Array("NSEntityName".utf8), Array("NSPrimaryKey64".utf8), Array("NSAttributeValues".utf8), Array("NSRelatedNodes".utf8),
        Array("NSNull".utf8), Array("NSDecimalNumber".utf8), Array("NS.mantissa".utf8), Array("NSUUID".utf8), Array("NSURL".utf8),
        Array("Person".utf8), Array("Employee".utf8), Array("Pet".utf8),
    ]
}
