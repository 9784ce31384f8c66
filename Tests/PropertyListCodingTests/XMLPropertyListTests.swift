import Foundation
import PropertyListCoding
import Testing

@Suite struct XMLPropertyListTests {
    /// Values XML can hold exactly (no null, whole-second dates).
    static let samples: [PropertyListValue] = BinaryPropertyListTests.samples.map { value in
        if case .date(let date) = value {
            return .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
        }
        return value
    } + [
        "escapes & < > \" ' \r\n\t", "  leading and trailing spaces  ", .uid(42), [.uid(0), ["CF$UID": "not a uid"]],
        .date(Date(timeIntervalSinceReferenceDate: -63_113_904_000)), .date(Date(timeIntervalSinceReferenceDate: 252_423_993_599)),
        .date(Date(timeIntervalSince1970: 951_782_400)),  // 2000-02-29
    ]

    @Test(arguments: samples)
    func roundTripsThroughOurWriterAndReader(_ value: PropertyListValue) throws {
        let xml = try XMLPropertyListWriter().write(value)
        #expect(try XMLPropertyListReader().read(xml) == value)
        #expect(try PropertyList.read(xml) == value)
    }

    @Test(arguments: samples.filter { !$0.containsArchiveOnlyValues })
    func foundationReadsWhatWeWrite(_ value: PropertyListValue) throws {
        let xml = try XMLPropertyListWriter().write(value)
        #expect(try FoundationBridge.foundationRead(xml) == value)
    }

    /// Foundation writes a carriage return literally, and XML parsers (libxml2 under FoundationXML) must turn
    /// it into a line feed, so strings with one are left out here; our writer escapes it as `&#13;`.
    @Test(arguments: samples.filter { !$0.containsArchiveOnlyValues && $0.stringValue?.contains("\r") != true })
    func weReadWhatFoundationWrites(_ value: PropertyListValue) throws {
        let xml = try FoundationBridge.foundationWrite(value, format: .xml)
        #expect(try XMLPropertyListReader().read(xml) == value)
    }

    @Test func datesUseTheAppleFormat() throws {
        let xml = try XMLPropertyListWriter().write(.date(Date(timeIntervalSince1970: 1_700_000_000.9)))
        #expect(String(decoding: xml, as: UTF8.self).contains("<date>2023-11-14T22:13:20Z</date>"))
        let fractional = Data("<plist><date>2001-01-01T00:00:01.5Z</date></plist>".utf8)
        #expect(try XMLPropertyListReader().read(fractional) == .date(Date(timeIntervalSinceReferenceDate: 1.5)))
    }

    @Test func readsAppleSpellingsAndLayouts() throws {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <!-- a comment -->
            <plist version="1.0">
            <dict>
                <key>hex</key><integer>0x1F</integer>
                <key>negative</key><integer> -12 </integer>
                <key>huge</key><integer>18446744073709551615</integer>
                <key>nan</key><real>nan</real>
                <key>inf</key><real>-infinity</real>
                <key>exp</key><real>1.5e3</real>
                <key>data</key><data>
                    AAEC
                    AwQ=
                </data>
                <key>cdata</key><string><![CDATA[a<b]]>&amp;c&#x41;</string>
                <key>empty</key><string/>
                <key>uid</key><dict><key>CF$UID</key><integer>7</integer></dict>
            </dict>
            </plist>
            """
        let value = try XMLPropertyListReader().read(Data(document.utf8))
        #expect(value["hex"] == 31)
        #expect(value["negative"] == -12)
        #expect(value["huge"] == .unsignedInteger(UInt64.max))
        #expect(value["nan"]?.doubleValue?.isNaN == true)
        #expect(value["inf"] == .real(-.infinity))
        #expect(value["exp"] == 1500.0)
        #expect(value["data"] == .data(Data([0, 1, 2, 3, 4])))
        #expect(value["cdata"] == "a<b&cA")
        #expect(value["empty"] == "")
        #expect(value["uid"] == .uid(7))
    }

    @Test(arguments: [
        ("<plist><dict><key>a</key></dict></plist>", 1, "key without a value"),
        ("<plist>\n<array>\n<integer>12x</integer>\n</array>\n</plist>", 3, "<integer> \"12x\""),
        ("<plist>\n<dict>\n<string>a</string><string>b</string>\n</dict></plist>", 3, "where a <key> belongs"),
        ("<plist>\n\n<date>yesterday</date></plist>", 3, "<date>"),
        ("<plist><real>fast</real></plist>", 1, "<real>"),
        ("<plist><data>!!!</data></plist>", 1, "base64"),
        ("<plist>\n<widget/></plist>", 2, "<widget>"),
        ("<plist><true>yes</true></plist>", 1, "must be empty"),
        ("<plist><string>a<b/></string></plist>", 1, "contains <b>"),
        ("<plist><string>a</string><string>b</string></plist>", 1, "not one"),
        ("<plist><integer>-9223372036854775809</integer></plist>", 1, "below Int64.min"),
        ("<plist><integer>18446744073709551616</integer></plist>", 1, "64 bits"),
        ("<plist>\n<dict>\n<key>a</string></dict></plist>", 3, "XML syntax error"),
        ("<plist><array>text<true/></array></plist>", 1, "text outside"),
    ])
    func malformedDocumentsNameTheLineAndElement(document: String, line: Int, reason: String) {
        #expect {
            try XMLPropertyListReader().read(Data(document.utf8))
        } throws: { error in
            guard let error = error as? PropertyListError else { return false }
            return error.line == line && error.reason.contains(reason)
        }
    }

    @Test func entityExpansionAndExternalEntitiesAreNotHonoured() throws {
        var laughs = "<!DOCTYPE plist [\n<!ENTITY l0 \"ha\">\n"
        for level in 1...12 { laughs += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">\n" }
        laughs += "]>\n<plist><string>&l12;</string></plist>"
        // libxml2 refuses the 10^12-fold expansion ("billion laughs") as a syntax error.
        #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(Data(laughs.utf8)) }

        let external = """
            <!DOCTYPE plist [<!ENTITY secret SYSTEM "file:///etc/hostname">]>
            <plist><string>&secret;</string></plist>
            """
        // External entities are never fetched: a DOCTYPE with an internal subset is refused before parsing (issue 16:
        // some declarations crash Foundation's parser on Linux).
        let error = #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(Data(external.utf8)) }
        #expect(error?.reason.contains("internal subset") == true)
    }

    @Test func deepNestingIsRejected() {
        let depth = 600
        let document = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(Data(document.utf8)) }
    }

    @Test func writerRejectsWhatXMLCannotHold() {
        #expect(throws: PropertyListError.self) { try XMLPropertyListWriter().write(.null) }
        #expect(throws: PropertyListError.self) { try XMLPropertyListWriter().write("bell \u{7}") }
        #expect(throws: PropertyListError.self) { try XMLPropertyListWriter().write(.date(Date(timeIntervalSinceReferenceDate: 1e15))) }
        #expect(throws: PropertyListError.self) { try XMLPropertyListWriter().write(.date(Date(timeIntervalSinceReferenceDate: .nan))) }
    }

    @Test func writerProducesAppleLayout() throws {
        let xml = String(decoding: try XMLPropertyListWriter().write(["b": [], "a": [1]]), as: UTF8.self)
        #expect(xml == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>a</key>
            \t<array>
            \t\t<integer>1</integer>
            \t</array>
            \t<key>b</key>
            \t<array/>
            </dict>
            </plist>

            """)
    }
}
