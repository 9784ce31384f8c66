// A pass-through SQLite VFS that injects I/O failures, for the fault tests. It wraps the default VFS ("unix") and
// becomes the default itself, so every connection of the process goes through it.
#ifndef CSQLITE_FAULT_VFS_H
#define CSQLITE_FAULT_VFS_H

/// The kinds of failure, each counted on its own kind of call.
typedef enum {
    OCDFaultNone = 0,
    /// xWrite fails with SQLITE_FULL, writing nothing (a disk that is full).
    OCDFaultDiskFull = 1,
    /// xWrite writes the first half of its buffer, then fails with SQLITE_IOERR_WRITE (a torn write).
    OCDFaultShortWrite = 2,
    /// xRead fails with SQLITE_IOERR_READ.
    OCDFaultReadError = 3,
    /// xSync fails with SQLITE_IOERR_FSYNC.
    OCDFaultSyncError = 4,
    /// The process kills itself with SIGKILL at that xWrite, before writing (a crash at an exact point).
    OCDFaultKill = 5,
} OCDFaultKind;

/// Installs the VFS as the process's default (once; later calls only re-arm it). From the `at`-th call (counted
/// from 1, after arming) of the kind's operation, that call fails; with `sticky`, every later one fails too (a
/// full disk stays full). Only files whose path contains `pathFilter` are affected (NULL: all). Returns an SQLite
/// result code.
int ocd_fault_vfs_install(OCDFaultKind kind, long at, int sticky, const char *pathFilter);

/// Calls of each operation since arming, on files that match the filter: writes, reads, syncs.
long ocd_fault_vfs_writes(void);
long ocd_fault_vfs_reads(void);
long ocd_fault_vfs_syncs(void);

/// Failures injected since arming.
long ocd_fault_vfs_injected(void);

#endif
