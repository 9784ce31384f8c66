import Foundation

// Apple's `userInfo` keys and error codes (`CoreDataErrors.h`), so that code reading an error through `NSError`
// compiles and finds what it finds on Apple's platforms.

/// The individual errors of a multiple-validation-errors error, as `[NSError]`.
public let NSDetailedErrorsKey = "NSDetailedErrors"
/// The object that failed validation.
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
/// The key of the property that failed validation.
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
/// The value that failed validation.
public let NSValidationValueErrorKey = "NSValidationErrorValue"
/// The predicate that failed validation.
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
/// The objects an error concerns (optimistic-locking conflicts, inaccessible objects).
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
/// The stores an error concerns.
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// Apple's key for the ``NSMergeConflict``s of an `NSPersistentStoreSaveConflictsError`. A context's save reports its
/// conflicts as Apple's does, under `"conflictList"` of an `NSManagedObjectMergeError` or
/// `NSManagedObjectConstraintMergeError`; the library raises no `NSPersistentStoreSaveConflictsError`, so only code that
/// reads this key compiles against it.
public let NSPersistentStoreSaveConflictsErrorKey = "NSPersistentStoreSaveConflictsErrorKey"

public let NSManagedObjectValidationError = 1550
public let NSManagedObjectConstraintValidationError = 1551
public let NSValidationMultipleErrorsError = 1560
public let NSValidationMissingMandatoryPropertyError = 1570
public let NSValidationRelationshipLacksMinimumCountError = 1580
public let NSValidationRelationshipExceedsMaximumCountError = 1590
public let NSValidationRelationshipDeniedDeleteError = 1600
public let NSValidationNumberTooLargeError = 1610
public let NSValidationNumberTooSmallError = 1620
public let NSValidationDateTooLateError = 1630
public let NSValidationDateTooSoonError = 1640
public let NSValidationInvalidDateError = 1650
public let NSValidationStringTooLongError = 1660
public let NSValidationStringTooShortError = 1670
public let NSValidationStringPatternMatchingError = 1680
public let NSManagedObjectContextLockingError = 132_000
public let NSPersistentStoreCoordinatorLockingError = 132_010
public let NSManagedObjectReferentialIntegrityError = 133_000
public let NSManagedObjectExternalRelationshipError = 133_010
public let NSManagedObjectMergeError = 133_020
public let NSManagedObjectConstraintMergeError = 133_021
public let NSPersistentStoreInvalidTypeError = 134_000
public let NSPersistentStoreTypeMismatchError = 134_010
public let NSPersistentStoreIncompatibleSchemaError = 134_020
public let NSPersistentStoreSaveError = 134_030
public let NSPersistentStoreIncompleteSaveError = 134_040
public let NSPersistentStoreSaveConflictsError = 134_050
public let NSCoreDataError = 134_060
public let NSPersistentStoreOperationError = 134_070
public let NSPersistentStoreOpenError = 134_080
public let NSPersistentStoreTimeoutError = 134_090
public let NSPersistentStoreUnsupportedRequestTypeError = 134_091
public let NSPersistentStoreIncompatibleVersionHashError = 134_100
public let NSMigrationError = 134_110
public let NSMigrationConstraintViolationError = 134_111
public let NSMigrationCancelledError = 134_120
public let NSMigrationMissingSourceModelError = 134_130
public let NSMigrationMissingMappingModelError = 134_140
public let NSMigrationManagerSourceStoreError = 134_150
public let NSMigrationManagerDestinationStoreError = 134_160
public let NSEntityMigrationPolicyError = 134_170
public let NSSQLiteError = 134_180
public let NSInferredMappingModelError = 134_190
public let NSExternalRecordImportError = 134_200

/// Bridged to `NSError` as Apple's errors are: `NSCocoaErrorDomain`, the code, and the `userInfo` keys above.
extension CoreDataError: CustomNSError {
    public var errorCode: Int { code.rawValue }

    /// `NSLocalizedDescriptionKey` (the message), `NSUnderlyingErrorKey`, and where they apply
    /// `NSDetailedErrorsKey`, `NSValidationObjectErrorKey`, `NSValidationKeyErrorKey`, `NSValidationValueErrorKey`,
    /// `NSValidationPredicateErrorKey` and `NSAffectedObjectsErrorKey`; a merge error's conflicts under `"conflictList"`,
    /// as Apple's.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let underlyingError { info[NSUnderlyingErrorKey] = underlyingError as NSError }
        if !detailedErrors.isEmpty { info[NSDetailedErrorsKey] = detailedErrors.map { $0 as NSError } }
        if let validationKey { info[NSValidationKeyErrorKey] = validationKey }
        if let validationObject { info[NSValidationObjectErrorKey] = validationObject }
        if let validationValue { info[NSValidationValueErrorKey] = validationValue }
        if let validationPredicate { info[NSValidationPredicateErrorKey] = validationPredicate }
        if !affectedObjects.isEmpty {
            info[NSAffectedObjectsErrorKey] = affectedObjects
        } else if !affectedObjectIDs.isEmpty {
            info[NSAffectedObjectsErrorKey] = affectedObjectIDs
        }
        if !conflicts.isEmpty { info["conflictList"] = conflicts }
        return info
    }
}
