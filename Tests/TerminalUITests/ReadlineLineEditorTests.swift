import TerminalText
import Foundation
import Testing
@testable import TerminalUI

/// GNU readline's callback interface, fed keys programmatically without a tty. Readline is process-global, so
/// these tests run one at a time and each owns the only editor.
@Suite(.serialized)
struct ReadlineLineEditorTests {
    init() {
        TestLocale.useUTF8()
        setenv("INPUTRC", "/dev/null", 1)  // the user's inputrc must not change the expectations
    }

    private func type(_ text: String, into editor: some LineEditor) {
        for character in text { editor.feed(.character(character)) }
    }

    @Test func editingKeys() throws {
        let editor = try ReadlineLineEditor()
        editor.begin(.filter, initialText: "name")
        #expect(editor.isActive && editor.text == "name" && editor.cursor == 4)
        type(" == 'é日'", into: editor)
        #expect(editor.text == "name == 'é日'")
        #expect(editor.cursor == 12)
        editor.feed(.left)
        editor.feed(.left)
        editor.feed(.backspace)  // é: two bytes, one cluster
        #expect(editor.text == "name == '日'")
        #expect(editor.cursor == 9)
        editor.feed(.home)
        type("a.", into: editor)
        #expect(editor.text == "a.name == '日'" && editor.cursor == 2)
        editor.feed(.control("e"))
        editor.feed(.control("w"))
        #expect(editor.text == "a.name == ")
        editor.feed(.control("a"))
        editor.feed(.delete)
        editor.feed(.right)
        editor.feed(.control("k"))
        #expect(editor.text == ".")
        #expect(editor.feed(.enter) == .accepted("."))
        #expect(!editor.isActive)
        #expect(editor.history(for: .filter) == ["."])
    }

    @Test func escapeAndControlCCancel() throws {
        let editor = try ReadlineLineEditor()
        editor.begin(.command, initialText: "write")
        #expect(editor.feed(.escape) == .cancelled)
        #expect(!editor.isActive && editor.text == "")
        editor.begin(.command, initialText: "quit")
        #expect(editor.text == "quit")  // a fresh line, not the cancelled one
        #expect(editor.feed(.control("c")) == .cancelled)
        #expect(editor.history(for: .command).isEmpty)
        editor.begin(.command, initialText: "")
        type("edit", into: editor)
        #expect(editor.accept() == "edit")
    }

    @Test func historyPerKindWithUpAndDown() throws {
        let editor = try ReadlineLineEditor()
        for line in ["age > 30", "name == 'Bob'"] {
            editor.begin(.filter, initialText: line)
            editor.feed(.enter)
        }
        editor.begin(.command, initialText: "sort name")
        editor.feed(.enter)

        editor.begin(.filter, initialText: "")
        editor.feed(.up)
        #expect(editor.text == "name == 'Bob'")
        editor.feed(.up)
        #expect(editor.text == "age > 30")
        editor.feed(.up)
        #expect(editor.text == "age > 30")  // the oldest filter; commands are not mixed in
        editor.feed(.down)
        editor.feed(.down)
        #expect(editor.text == "")
        editor.cancel()
        editor.begin(.command, initialText: "")
        editor.feed(.up)
        #expect(editor.text == "sort name")
    }

    @Test func reverseIncrementalSearch() throws {
        let editor = try ReadlineLineEditor()
        for line in ["name BEGINSWITH 'a'", "age > 30", "title CONTAINS 'x'"] {
            editor.begin(.filter, initialText: line)
            editor.feed(.enter)
        }
        editor.begin(.filter, initialText: "")
        editor.feed(.control("r"))
        type("nam", into: editor)
        #expect(editor.text == "name BEGINSWITH 'a'")
        #expect(editor.modeIndicator?.contains("reverse-i-search") == true)
        #expect(editor.modeIndicator?.contains("nam") == true)
        #expect(editor.feed(.enter) == .accepted("name BEGINSWITH 'a'"))
    }

    @Test func completionBridgesToTheSwiftCompleter() throws {
        let editor = try ReadlineLineEditor()
        var words: [String] = []
        editor.completer = { _, word in
            words.append(word)
            return ["name", "nameLength", "notes", "age"].filter { $0.hasPrefix(word) }
        }
        editor.begin(.filter, initialText: "(na")
        editor.feed(.tab)
        #expect(editor.text == "(name")
        #expect(words == ["na"])
        #expect(editor.completionCandidates == ["name", "nameLength"])
        editor.feed(.tab)
        editor.feed(.tab)  // readline lists the candidates now: captured by the display hook, never printed
        #expect(editor.completionCandidates == ["name", "nameLength"])
        #expect(editor.text == "(name")
        type("L", into: editor)
        editor.feed(.tab)
        #expect(editor.text == "(nameLength ")
        type("> 3 AND zz", into: editor)
        editor.feed(.tab)
        #expect(editor.text == "(nameLength > 3 AND zz")  // no candidate, and no file-name fallback
        editor.cancel()
    }

    @Test("A single candidate ending in . (a key path that goes on) gets no space; the completer sees the line up to the cursor")
    func completionOfAKeyPathThatGoesOn() throws {
        let editor = try ReadlineLineEditor()
        var lines: [String] = []
        editor.completer = { line, word in
            lines.append(line)
            return ["chef.", "cuisine."].filter { $0.hasPrefix(word) }
        }
        editor.begin(.filter, initialText: "che AND x")
        for _ in 0..<6 { editor.feed(.left) }
        editor.feed(.tab)
        #expect(editor.text == "chef. AND x")
        #expect(lines == ["che"])
        editor.cancel()
    }

    @Test func historyFilesRoundTripThroughReadline() throws {
        let directory = try TemporaryFiles.directory()
        let filterFile = directory + "/filter", commandFile = directory + "/command"
        do {
            let editor = try ReadlineLineEditor(historyFiles: [.filter: filterFile, .command: commandFile], historyLimit: 2)
            for line in ["one", "two", "three"] {
                editor.begin(.filter, initialText: line)
                editor.feed(.enter)
            }
            editor.begin(.command, initialText: "w")
            editor.feed(.enter)
        }
        let lines = try String(contentsOfFile: filterFile, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines == ["two", "three"])  // capped at the limit
        #expect(try TemporaryFiles.permissions(of: filterFile) & 0o077 == 0)
        let reopened = try ReadlineLineEditor(historyFiles: [.filter: filterFile, .command: commandFile])
        #expect(reopened.history(for: .filter) == ["two", "three"])
        #expect(reopened.history(for: .command) == ["w"])
        reopened.begin(.filter, initialText: "")
        reopened.feed(.up)
        #expect(reopened.text == "three")
        reopened.cancel()
    }

    @Test func viModeFromAnInputrc() throws {
        let editor = try ReadlineLineEditor()
        let directory = try TemporaryFiles.directory()
        try "set editing-mode vi\n".write(toFile: directory + "/vi", atomically: true, encoding: .utf8)
        try "set editing-mode emacs\n".write(toFile: directory + "/emacs", atomically: true, encoding: .utf8)
        try editor.applyInitFile(directory + "/vi")
        defer { try? editor.applyInitFile(directory + "/emacs") }
        editor.begin(.filter, initialText: "")
        type("name", into: editor)
        #expect(editor.feed(.escape) == .editing)  // vi: Escape leaves insert mode, the prompt stays open
        type("0x", into: editor)                     // to the start, delete a character
        #expect(editor.text == "ame" && editor.cursor == 0)
        type("A!", into: editor)                     // append at the end, in insert mode again
        #expect(editor.text == "ame!")
        editor.feed(.escape)
        #expect(editor.feed(.escape) == .cancelled)  // Escape in command mode closes the prompt
        #expect(throws: ReadlineError.self) { try editor.applyInitFile(directory + "/missing") }
    }

    @Test func onlyOneEditorAtATime() throws {
        let editor = try ReadlineLineEditor()
        #expect(throws: ReadlineLineEditor.CreationError.alreadyInUse) { try ReadlineLineEditor() }
        _ = editor
    }

    @Test func promptViewDrawsReadlineState() throws {
        let editor = try ReadlineLineEditor()
        editor.begin(.filter, initialText: "title == '日本語のタイトル'")
        var screen = Screen(size: Size(columns: 16, rows: 1))
        LinePromptView.render(editor, label: "/", in: screen.bounds, into: &screen)
        // Scrolled so that the cursor, at the end, stays on screen in the last column.
        #expect(screen.cursor == Point(column: 15, row: 0))
        #expect(DisplayWidth.of(screen.lines(trimming: false)[0]) == 16)
        #expect(screen.lines()[0].hasPrefix("/"))
        #expect(screen.lines()[0].hasSuffix("タイトル'"))
        editor.cancel()
    }
}
