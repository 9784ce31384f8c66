#ifndef C_SWIFT_RUNTIME_SHIM_H
#define C_SWIFT_RUNTIME_SHIM_H

// libswiftCore exports it (weak references are built on it): it returns the object when it took a strong
// reference and NULL when the object's deinitialisation has begun. Swift offers no public spelling of it.
extern void *swift_tryRetain(void *object);

/// Takes a strong reference to the Swift object at `object` unless its deinitialisation has begun.
///
/// Returns 1 when the object was retained (balance it with a release), 0 when it is being deinitialised and must
/// not be touched. `object` must point to a live or deinitialising object, never to freed memory.
static inline int c_swift_try_retain(void *object) {
    return swift_tryRetain(object) != 0;
}

#endif
