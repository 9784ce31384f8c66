import Dispatch
import Foundation
import Synchronization

/// Hands a value between a job's thread and the browser's event loop. The job builds the value and never touches it
/// again once it returns it (or, going the other way, the loop does not touch what it gave the job until the job
/// finished); the mailbox's lock orders the two sides, so the value is never used by two threads at once.
struct JobTransfer<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Work that may take long (a sort, `G`, describe, frequency) runs here, one job at a time, on a thread of its own,
/// while the event loop keeps drawing a spinner naming it and answering keys. A job's result is picked up by the loop
/// (`collect()`, from every key and tick) and applied there, on the loop's thread; nothing the job returns is used
/// before that.
///
/// Cancelling sets the job's flag and calls its cancel action, which interrupts the SQLite connection the job is
/// running on (`InterruptHandle`): the statement fails at its next step and the job reports itself cancelled.
package final class BrowserJobs {
    /// What the loop knows of the running job.
    package struct Running {
        let ticket: Int
        /// What runs, for the spinner: "sorting Recipe by name".
        package let title: String
        let started: ContinuousClock.Instant
        /// The job reads through the store's own connection (under the coordinator's lock): until it ends, the loop
        /// draws only what is in memory and refuses what would wait for that lock.
        let usesStore: Bool
        fileprivate let flag: JobFlag
        fileprivate let cancelAction: @Sendable () -> Void
        fileprivate let finish: (JobOutcome) -> Void
    }

    /// How a job ended.
    enum JobOutcome {
        case finished(Any)
        case cancelled
        case failed(any Error)
    }

    private let queue = DispatchQueue(label: "OpenCoreData.StoreBrowser.BrowserJobs")
    private let mailbox = Mailbox()
    private var nextTicket = 0
    /// The job running now (or finished and not collected yet).
    package private(set) var running: Running?

    /// Whether a job runs.
    package var isBusy: Bool { running != nil }
    /// Whether the running job holds the store's connection.
    var holdsStore: Bool { running?.usesStore == true }

    /// Starts `work` on the jobs' thread; `finish` gets its outcome on the loop's thread, from `collect()`.
    /// `cancel` is called (from the loop) when the user cancels: it interrupts the connection `work` reads.
    func start<Value>(_ title: String, usesStore: Bool, cancel: @escaping @Sendable () -> Void,
                      work: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) throws -> JobTransfer<Value>,
                      finish: @escaping (Result<Value, any Error>?) -> Void) {
        nextTicket += 1
        let ticket = nextTicket
        let flag = JobFlag()
        running = Running(ticket: ticket, title: title, started: .now, usesStore: usesStore, flag: flag, cancelAction: cancel,
                          finish: { outcome in
                              switch outcome {
                              case .finished(let value): finish(.success(value as! Value))
                              case .failed(let error): finish(.failure(error))
                              case .cancelled: finish(nil)
                              }
                          })
        queue.async { [mailbox] in
            let outcome: JobOutcome
            do {
                let value = try work { flag.isSet }
                outcome = flag.isSet ? .cancelled : .finished(value.value)
            } catch {
                // An interrupted statement fails with whatever error wraps SQLITE_INTERRUPT: after a cancel, any
                // failure is the cancel.
                outcome = flag.isSet ? .cancelled : .failed(error)
            }
            mailbox.items.withLock { $0.append((ticket, JobTransfer(outcome))) }
        }
    }

    /// Cancels the running job; returns its title, or nil when none runs.
    @discardableResult
    func cancel() -> String? {
        guard let running else { return nil }
        running.flag.set()
        running.cancelAction()
        return running.title
    }

    /// Applies the outcome of a finished job (its `finish`); returns whether one finished.
    @discardableResult
    func collect() -> Bool {
        let done = mailbox.items.withLock { items -> [(ticket: Int, outcome: JobTransfer<JobOutcome>)] in
            defer { items.removeAll() }
            return items
        }
        var collected = false
        for (ticket, outcome) in done where ticket == running?.ticket {
            let finished = running!
            running = nil
            finished.finish(outcome.value)
            collected = true
        }
        return collected
    }

    /// Waits until the jobs' thread is idle (tests, and the harness that plays keys one after another).
    package func waitUntilIdle() {
        queue.sync {}
    }

    /// The spinner frame for the time the running job has taken: one step per tick.
    var spinnerText: String? {
        guard let running else { return nil }
        let elapsed = ContinuousClock.now - running.started
        let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
        let step = Int(elapsed / .milliseconds(100))
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return "\(frames[step % frames.count]) \(running.title)… \(String(format: "%.1f", seconds)) s · Esc cancels"
    }
}

/// Finished jobs' outcomes, posted by the jobs' thread and taken by the loop.
private final class Mailbox: Sendable {
    let items = Mutex<[(ticket: Int, outcome: JobTransfer<BrowserJobs.JobOutcome>)]>([])
}

/// A job's cancel flag, set by the loop and read by the job.
private final class JobFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
