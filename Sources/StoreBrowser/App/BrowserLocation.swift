import CoreDataObjectGraph

/// Where the browser is: a table, with the detail pane of one of its objects open or not. The back and forward
/// stacks hold locations, so returning restores the table's filter, sort, cursor and loaded batches.
final class BrowserLocation {
    let table: TableModel
    var detail: DetailModel?
    /// Set when this table was opened to pick a destination for the detail pane below it on the back stack.
    var isPicker = false
    /// Set when this location is the detail pane opened over the table of the location below it (Enter on a row,
    /// `i`): back returns to that table with its cursor, and the breadcrumb names only the object.
    var isDetailStep = false

    init(table: TableModel, detail: DetailModel? = nil) {
        self.table = table
        self.detail = detail
    }

    /// The breadcrumb step: the table's title, and the object when the detail pane is open.
    var crumb: String {
        if let detail { return isDetailStep ? detail.title : table.query.title + " › " + detail.title }
        return table.query.title
    }
}

/// A modal layer over the panes.
enum BrowserOverlay {
    /// Scrollable text: help, the SQL of the filter, describe, a save report.
    case text(title: String, lines: [String], scroll: Int)
    /// A frequency table; Enter drills into the value.
    case frequency(FrequencyModel)
    /// A question with key choices.
    case confirm(Confirmation)
    /// A write refused by a conflict with another process: mine / theirs / read per field.
    case conflict(ConflictModel)
}

/// A question the user answers with one key.
struct Confirmation {
    enum Choice: Equatable {
        case writeChanges
        case discardAndQuit
        case writeAndQuit
        case deleteSelected
        /// Export in this format to this path, replacing the file there.
        case overwriteExport(ExportJob.Format, String)
        case cancel
    }

    var title: String
    var lines: [String]
    var options: [(key: Character, label: String, choice: Choice)]
    var scroll = 0
}

/// What an open prompt is for.
enum PromptPurpose: Equatable {
    case filter
    case command
    /// Editing the detail pane's selected field.
    case editField(String)
    /// `c`: the name of a column to jump to.
    case column
}
