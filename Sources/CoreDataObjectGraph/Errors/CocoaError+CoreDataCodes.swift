import Foundation

/// The invalid-URI validation code of CoreDataErrors.h (an attribute of URI type that holds no valid URI).
public let NSValidationInvalidURIError = 1690

/// Apple's Swift names of Core Data's error codes as `CocoaError.Code` members, for
/// `(error as NSError).code == CocoaError.Code.validationMissingMandatoryProperty.rawValue` and `CocoaError(.migrationCancelled)`.
extension CocoaError.Code {
    public static var managedObjectValidation: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectValidationError) }
    public static var managedObjectConstraintValidation: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectConstraintValidationError) }
    public static var validationMultipleErrors: CocoaError.Code { CocoaError.Code(rawValue: NSValidationMultipleErrorsError) }
    public static var validationMissingMandatoryProperty: CocoaError.Code { CocoaError.Code(rawValue: NSValidationMissingMandatoryPropertyError) }
    public static var validationRelationshipLacksMinimumCount: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipLacksMinimumCountError) }
    public static var validationRelationshipExceedsMaximumCount: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipExceedsMaximumCountError) }
    public static var validationRelationshipDeniedDelete: CocoaError.Code { CocoaError.Code(rawValue: NSValidationRelationshipDeniedDeleteError) }
    public static var validationNumberTooLarge: CocoaError.Code { CocoaError.Code(rawValue: NSValidationNumberTooLargeError) }
    public static var validationNumberTooSmall: CocoaError.Code { CocoaError.Code(rawValue: NSValidationNumberTooSmallError) }
    public static var validationDateTooLate: CocoaError.Code { CocoaError.Code(rawValue: NSValidationDateTooLateError) }
    public static var validationDateTooSoon: CocoaError.Code { CocoaError.Code(rawValue: NSValidationDateTooSoonError) }
    public static var validationInvalidDate: CocoaError.Code { CocoaError.Code(rawValue: NSValidationInvalidDateError) }
    public static var validationStringTooLong: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringTooLongError) }
    public static var validationStringTooShort: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringTooShortError) }
    public static var validationStringPatternMatching: CocoaError.Code { CocoaError.Code(rawValue: NSValidationStringPatternMatchingError) }
    public static var validationInvalidURI: CocoaError.Code { CocoaError.Code(rawValue: NSValidationInvalidURIError) }
    public static var managedObjectContextLocking: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectContextLockingError) }
    public static var persistentStoreCoordinatorLocking: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreCoordinatorLockingError) }
    public static var managedObjectReferentialIntegrity: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectReferentialIntegrityError) }
    public static var managedObjectExternalRelationship: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectExternalRelationshipError) }
    public static var managedObjectMerge: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectMergeError) }
    public static var managedObjectConstraintMerge: CocoaError.Code { CocoaError.Code(rawValue: NSManagedObjectConstraintMergeError) }
    public static var persistentStoreInvalidType: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreInvalidTypeError) }
    public static var persistentStoreTypeMismatch: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreTypeMismatchError) }
    public static var persistentStoreIncompatibleSchema: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompatibleSchemaError) }
    public static var persistentStoreSave: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreSaveError) }
    public static var persistentStoreIncompleteSave: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompleteSaveError) }
    public static var persistentStoreSaveConflicts: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreSaveConflictsError) }
    public static var coreData: CocoaError.Code { CocoaError.Code(rawValue: NSCoreDataError) }
    public static var persistentStoreOperation: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreOperationError) }
    public static var persistentStoreOpen: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreOpenError) }
    public static var persistentStoreTimeout: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreTimeoutError) }
    public static var persistentStoreUnsupportedRequestType: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreUnsupportedRequestTypeError) }
    public static var persistentStoreIncompatibleVersionHash: CocoaError.Code { CocoaError.Code(rawValue: NSPersistentStoreIncompatibleVersionHashError) }
    public static var migration: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationError) }
    public static var migrationConstraintViolation: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationConstraintViolationError) }
    public static var migrationCancelled: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationCancelledError) }
    public static var migrationMissingSourceModel: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationMissingSourceModelError) }
    public static var migrationMissingMappingModel: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationMissingMappingModelError) }
    public static var migrationManagerSourceStore: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationManagerSourceStoreError) }
    public static var migrationManagerDestinationStore: CocoaError.Code { CocoaError.Code(rawValue: NSMigrationManagerDestinationStoreError) }
    public static var entityMigrationPolicy: CocoaError.Code { CocoaError.Code(rawValue: NSEntityMigrationPolicyError) }
    public static var sqlite: CocoaError.Code { CocoaError.Code(rawValue: NSSQLiteError) }
    public static var inferredMappingModel: CocoaError.Code { CocoaError.Code(rawValue: NSInferredMappingModelError) }
    public static var externalRecordImport: CocoaError.Code { CocoaError.Code(rawValue: NSExternalRecordImportError) }
}
