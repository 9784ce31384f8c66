import Testing
@testable import TerminalUI

struct BasicLineEditorTests {
    private func type(_ text: String, into editor: some LineEditor) {
        for character in text { editor.feed(.character(character)) }
    }

    @Test func insertingAndMovingTheCursor() {
        let editor = BasicLineEditor()
        editor.begin(.filter, initialText: "name")
        #expect(editor.isActive && editor.text == "name" && editor.cursor == 4)
        editor.feed(.home)
        type("a.", into: editor)
        editor.feed(.end)
        type(" == 'é日'", into: editor)
        #expect(editor.text == "a.name == 'é日'")
        editor.feed(.left)
        editor.feed(.left)
        editor.feed(.backspace)
        #expect(editor.text == "a.name == '日'")
        editor.feed(.delete)
        #expect(editor.text == "a.name == ''")
        #expect(editor.cursor == 11)
        editor.feed(.control("a"))
        #expect(editor.cursor == 0)
        editor.feed(.control("e"))
        #expect(editor.cursor == 12)
    }

    @Test func killingAndYanking() {
        let editor = BasicLineEditor()
        editor.begin(.command, initialText: "sort name ascending")
        editor.feed(.control("w"))
        #expect(editor.text == "sort name ")
        editor.feed(.control("y"))
        #expect(editor.text == "sort name ascending")
        editor.feed(.control("a"))
        editor.feed(.right)
        editor.feed(.control("k"))
        #expect(editor.text == "s")
        editor.feed(.control("e"))
        editor.feed(.control("u"))
        #expect(editor.text == "" && editor.cursor == 0)
    }

    @Test func acceptAndCancel() {
        let editor = BasicLineEditor()
        editor.begin(.filter, initialText: "")
        type("x > 1", into: editor)
        #expect(editor.feed(.enter) == .accepted("x > 1"))
        #expect(!editor.isActive)
        #expect(editor.feed(.character("z")) == .editing)  // a closed editor ignores keys
        editor.begin(.filter, initialText: "draft")
        #expect(editor.feed(.escape) == .cancelled)
        #expect(editor.history(for: .filter) == ["x > 1"])
        editor.begin(.command, initialText: "w")
        #expect(editor.accept() == "w")
    }

    @Test func historyIsKeptPerPromptKind() {
        let editor = BasicLineEditor()
        for line in ["a", "b", "b", ""] {
            editor.begin(.filter, initialText: line)
            editor.feed(.enter)
        }
        editor.begin(.command, initialText: "quit")
        editor.feed(.enter)
        #expect(editor.history(for: .filter) == ["a", "b"])  // repeats and empty lines are not recorded
        #expect(editor.history(for: .command) == ["quit"])

        editor.begin(.filter, initialText: "dra")
        editor.feed(.up)
        #expect(editor.text == "b")
        editor.feed(.up)
        editor.feed(.up)
        #expect(editor.text == "a")
        editor.feed(.down)
        editor.feed(.down)
        #expect(editor.text == "dra")  // the draft comes back
        editor.feed(.control("p"))
        #expect(editor.text == "b")
    }

    @Test func reverseIncrementalSearch() {
        let editor = BasicLineEditor()
        for line in ["name BEGINSWITH 'a'", "age > 30", "name == 'Bob'", "title CONTAINS 'x'"] {
            editor.begin(.filter, initialText: line)
            editor.feed(.enter)
        }
        editor.begin(.filter, initialText: "typed")
        editor.feed(.control("r"))
        #expect(editor.modeIndicator == "(reverse-i-search)`': ")
        type("name", into: editor)
        #expect(editor.text == "name == 'Bob'")
        #expect(editor.modeIndicator == "(reverse-i-search)`name': ")
        editor.feed(.control("r"))
        #expect(editor.text == "name BEGINSWITH 'a'")
        editor.feed(.control("r"))
        #expect(editor.text == "name BEGINSWITH 'a'")
        type("zzz", into: editor)
        #expect(editor.modeIndicator == "(failed reverse-i-search)`namezzz': ")
        editor.feed(.backspace)
        editor.feed(.backspace)
        editor.feed(.backspace)
        #expect(editor.text == "name == 'Bob'")  // the search restarts from the newest entry
        editor.feed(.escape)
        #expect(editor.text == "typed" && editor.modeIndicator == nil && editor.isActive)

        editor.feed(.control("r"))
        type("age", into: editor)
        editor.feed(.end)  // a motion key ends the search and keeps the line
        #expect(editor.modeIndicator == nil && editor.text == "age > 30" && editor.cursor == 8)
        editor.feed(.control("r"))
        type("title", into: editor)
        #expect(editor.feed(.enter) == .accepted("title CONTAINS 'x'"))
    }

    @Test("A single candidate ending in . (a key path that goes on) gets no space; the completer sees the line up to the cursor")
    func completionOfAKeyPathThatGoesOn() {
        let editor = BasicLineEditor()
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
    }

    @Test func tabCompletion() {
        let editor = BasicLineEditor()
        var seen: [(String, String)] = []
        editor.completer = { line, word in
            seen.append((line, word))
            return ["name", "nameLength", "notes", "age"].filter { $0.hasPrefix(word) }
        }
        editor.begin(.filter, initialText: "(na")
        editor.feed(.tab)
        #expect(editor.text == "(name")
        #expect(editor.completionCandidates == ["name", "nameLength"])
        #expect(seen.last?.1 == "na")
        type("L", into: editor)
        #expect(editor.completionCandidates.isEmpty)
        editor.feed(.tab)
        #expect(editor.text == "(nameLength ")
        type("> 3 AND ag", into: editor)
        editor.feed(.tab)
        #expect(editor.text == "(nameLength > 3 AND age ")
        type("zz", into: editor)
        editor.feed(.tab)
        #expect(editor.text == "(nameLength > 3 AND age zz")  // no candidate: unchanged
    }

    @Test func historyFilesAreReadAndAppended() throws {
        let directory = try TemporaryFiles.directory()
        let path = directory + "/filter_history"
        do {
            let editor = BasicLineEditor(historyFiles: [.filter: path])
            editor.begin(.filter, initialText: "first")
            editor.feed(.enter)
            editor.begin(.filter, initialText: "日本 \u{1B}")
            editor.feed(.enter)
        }
        let reopened = BasicLineEditor(historyFiles: [.filter: path], historyLimit: 1)
        #expect(reopened.history(for: .filter) == ["日本 \u{1B}"])
        #expect(try TemporaryFiles.permissions(of: path) == 0o600)
    }
}
