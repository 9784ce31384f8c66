import Foundation

/// The commands the hostile-store corpus runs on every variant (issue 16, item 6).
public enum HostileCommand: String, CaseIterable, Sendable {
    case schema, query, queryKeys, count, aggregate, setAsking, setYes, insert, delete, browse

    /// Commands that must never change a byte of the store, whatever they answer.
    public var isReadOnly: Bool {
        switch self {
        case .schema, .query, .queryKeys, .count, .aggregate, .browse: true
        // `set` without --yes on several objects asks, and with no terminal to ask on, refuses.
        case .setAsking: true
        case .setYes, .insert, .delete: false
        }
    }
}

/// One variant of the corpus: a folder holding a store (or something posing as one) and what the commands must do.
public struct HostileStore: Sendable, CustomStringConvertible {
    /// What every command must do with this variant.
    public enum Expectation: Sendable {
        /// Read commands succeed, and `count` of ``HostileStore/entity`` prints this number.
        case opens(count: Int)
        /// Every command refuses with one line that contains this text (lower-cased comparison).
        case refused(mentioning: String)
        /// Either is right (a damaged page that only some reads touch): the universal rules still apply.
        case opensOrRefuses
    }

    public var name: String
    /// The variant's own folder; tests copy it whole before each command, so that side files travel too.
    public var folder: URL
    /// The path the commands receive, relative to ``folder`` (it may name something that does not exist).
    public var storeName: String
    public var entity: String
    /// A string attribute of ``entity`` that `set` and `insert` assign.
    public var attribute: String
    /// Keys for `query --keys`, through a relationship where the entity has one.
    public var keys: String
    public var expectation: Expectation
    /// Commands not run on this variant because of a known bug another change fixes, with the bug named.
    public var knownBugs: [HostileCommand: String] = [:]
    /// Commands that must refuse on this variant although it opens, each with text its message must contain (a
    /// query through a broken reference, an insert past the largest primary key).
    public var refusals: [HostileCommand: String] = [:]
    /// The variant holds a hot journal: each command rolls it back on opening (a change to the files, expected),
    /// says so in one `coredata: note:` line containing this text, then answers as ``expectation`` says.
    public var recoversJournal: String?

    public var description: String { name }

    public init(name: String, folder: URL, storeName: String, entity: String, attribute: String, keys: String,
                expectation: Expectation, knownBugs: [HostileCommand: String] = [:],
                refusals: [HostileCommand: String] = [:], recoversJournal: String? = nil) {
        self.name = name
        self.folder = folder
        self.storeName = storeName
        self.entity = entity
        self.attribute = attribute
        self.keys = keys
        self.expectation = expectation
        self.knownBugs = knownBugs
        self.refusals = refusals
        self.recoversJournal = recoversJournal
    }
}
