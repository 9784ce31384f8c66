// The fault-injecting VFS: every file method passes through to the real VFS's file, except that the armed
// operation fails at the armed call. The real file object lives right after ours in the same allocation.
#include "CSQLiteFaultVFS.h"

#include <sqlite3.h>
#include <signal.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

typedef struct FaultFile {
    sqlite3_file base;
    int matches;          // the path contains the filter
    sqlite3_file *real;   // points just past this struct
} FaultFile;

static sqlite3_vfs faultVFS;
static sqlite3_vfs *realVFS;
static sqlite3_io_methods faultMethods;
static int methodsReady;

static OCDFaultKind armedKind;
static long armedAt;
static int armedSticky;
static char *armedFilter;
static long writes, reads, syncs, injected;

// Whether this call (the `count`-th of its operation) is to fail.
static int shouldFail(OCDFaultKind kind, long count) {
    if (armedKind != kind || armedAt <= 0) return 0;
    if (count == armedAt || (armedSticky && count > armedAt)) {
        injected++;
        return 1;
    }
    return 0;
}

#define REAL(file) (((FaultFile *)(file))->real)
#define MATCHES(file) (((FaultFile *)(file))->matches)

static int fClose(sqlite3_file *file) {
    int rc = REAL(file)->pMethods ? REAL(file)->pMethods->xClose(REAL(file)) : SQLITE_OK;
    return rc;
}

static int fRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    if (MATCHES(file)) {
        reads++;
        if (shouldFail(OCDFaultReadError, reads)) return SQLITE_IOERR_READ;
    }
    return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}

static int fWrite(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    if (MATCHES(file)) {
        writes++;
        if (shouldFail(OCDFaultKill, writes)) kill(getpid(), SIGKILL);
        if (shouldFail(OCDFaultDiskFull, writes)) return SQLITE_FULL;
        if (shouldFail(OCDFaultShortWrite, writes)) {
            if (amount > 1) REAL(file)->pMethods->xWrite(REAL(file), buffer, amount / 2, offset);
            return SQLITE_IOERR_WRITE;
        }
    }
    return REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
}

static int fTruncate(sqlite3_file *file, sqlite3_int64 size) {
    return REAL(file)->pMethods->xTruncate(REAL(file), size);
}

static int fSync(sqlite3_file *file, int flags) {
    if (MATCHES(file)) {
        syncs++;
        if (shouldFail(OCDFaultSyncError, syncs)) return SQLITE_IOERR_FSYNC;
    }
    return REAL(file)->pMethods->xSync(REAL(file), flags);
}

static int fFileSize(sqlite3_file *file, sqlite3_int64 *size) { return REAL(file)->pMethods->xFileSize(REAL(file), size); }
static int fLock(sqlite3_file *file, int lock) { return REAL(file)->pMethods->xLock(REAL(file), lock); }
static int fUnlock(sqlite3_file *file, int lock) { return REAL(file)->pMethods->xUnlock(REAL(file), lock); }
static int fCheckReservedLock(sqlite3_file *file, int *out) {
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), out);
}
static int fFileControl(sqlite3_file *file, int op, void *arg) {
    return REAL(file)->pMethods->xFileControl(REAL(file), op, arg);
}
static int fSectorSize(sqlite3_file *file) { return REAL(file)->pMethods->xSectorSize(REAL(file)); }
static int fDeviceCharacteristics(sqlite3_file *file) {
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}
static int fShmMap(sqlite3_file *file, int page, int size, int extend, void volatile **out) {
    return REAL(file)->pMethods->xShmMap(REAL(file), page, size, extend, out);
}
static int fShmLock(sqlite3_file *file, int offset, int n, int flags) {
    return REAL(file)->pMethods->xShmLock(REAL(file), offset, n, flags);
}
static void fShmBarrier(sqlite3_file *file) { REAL(file)->pMethods->xShmBarrier(REAL(file)); }
static int fShmUnmap(sqlite3_file *file, int deleteFlag) {
    return REAL(file)->pMethods->xShmUnmap(REAL(file), deleteFlag);
}
static int fFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
    return REAL(file)->pMethods->xFetch(REAL(file), offset, amount, out);
}
static int fUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *page) {
    return REAL(file)->pMethods->xUnfetch(REAL(file), offset, page);
}

static int fOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    FaultFile *wrapper = (FaultFile *)file;
    wrapper->real = (sqlite3_file *)(wrapper + 1);
    wrapper->matches = name != NULL && (armedFilter == NULL || strstr(name, armedFilter) != NULL);
    int rc = realVFS->xOpen(realVFS, name, wrapper->real, flags, outFlags);
    if (wrapper->real->pMethods == NULL) {
        file->pMethods = NULL;
        return rc;
    }
    if (!methodsReady) {
        // The same version as the real methods (at most 3), so SQLite asks only for what the real file has.
        int version = wrapper->real->pMethods->iVersion;
        faultMethods = (sqlite3_io_methods){
            version > 3 ? 3 : version, fClose, fRead, fWrite, fTruncate, fSync, fFileSize, fLock, fUnlock,
            fCheckReservedLock, fFileControl, fSectorSize, fDeviceCharacteristics,
            fShmMap, fShmLock, fShmBarrier, fShmUnmap, fFetch, fUnfetch};
        methodsReady = 1;
    }
    file->pMethods = &faultMethods;
    return rc;
}

static int fDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    (void)vfs;
    return realVFS->xDelete(realVFS, name, syncDir);
}
static int fAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    return realVFS->xAccess(realVFS, name, flags, out);
}
static int fFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return realVFS->xFullPathname(realVFS, name, size, out);
}
static void *fDlOpen(sqlite3_vfs *vfs, const char *name) { (void)vfs; return realVFS->xDlOpen(realVFS, name); }
static void fDlError(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; realVFS->xDlError(realVFS, size, out); }
static void (*fDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return realVFS->xDlSym(realVFS, handle, symbol);
}
static void fDlClose(sqlite3_vfs *vfs, void *handle) { (void)vfs; realVFS->xDlClose(realVFS, handle); }
static int fRandomness(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; return realVFS->xRandomness(realVFS, size, out); }
static int fSleep(sqlite3_vfs *vfs, int micros) { (void)vfs; return realVFS->xSleep(realVFS, micros); }
static int fCurrentTime(sqlite3_vfs *vfs, double *out) { (void)vfs; return realVFS->xCurrentTime(realVFS, out); }
static int fGetLastError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return realVFS->xGetLastError(realVFS, size, out);
}
static int fCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return realVFS->xCurrentTimeInt64(realVFS, out);
}

int ocd_fault_vfs_install(OCDFaultKind kind, long at, int sticky, const char *pathFilter) {
    if (realVFS == NULL) {
        int rc = sqlite3_initialize();
        if (rc != SQLITE_OK) return rc;
        realVFS = sqlite3_vfs_find(NULL);
        if (realVFS == NULL) return SQLITE_ERROR;
        faultVFS = (sqlite3_vfs){
            realVFS->iVersion > 2 ? 2 : realVFS->iVersion, (int)sizeof(FaultFile) + realVFS->szOsFile,
            realVFS->mxPathname, NULL, "ocd-fault", NULL,
            fOpen, fDelete, fAccess, fFullPathname, fDlOpen, fDlError, fDlSym, fDlClose,
            fRandomness, fSleep, fCurrentTime, fGetLastError, fCurrentTimeInt64, NULL, NULL, NULL};
        int registered = sqlite3_vfs_register(&faultVFS, 1);
        if (registered != SQLITE_OK) return registered;
    }
    free(armedFilter);
    armedFilter = pathFilter ? strdup(pathFilter) : NULL;
    armedKind = kind;
    armedAt = at;
    armedSticky = sticky;
    writes = reads = syncs = injected = 0;
    return SQLITE_OK;
}

long ocd_fault_vfs_writes(void) { return writes; }
long ocd_fault_vfs_reads(void) { return reads; }
long ocd_fault_vfs_syncs(void) { return syncs; }
long ocd_fault_vfs_injected(void) { return injected; }
