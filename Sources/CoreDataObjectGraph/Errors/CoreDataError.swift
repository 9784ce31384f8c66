import Foundation
import Predicates

/// The one public error of the object graph, with Apple's codes (`CoreDataErrors.h`) and a message that names
/// what was wrong and where. Lower layers' precise errors (`SQLiteError`, `StoreFormatError`, `ModelError`,
/// `PredicateSyntaxError`) are kept as the `underlyingError`.
public struct CoreDataError: Error, CustomStringConvertible, @unchecked Sendable {
    /// Apple's error codes, in `NSCocoaErrorDomain`.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let managedObjectValidation = Code(rawValue: 1550)
        public static let validationMultipleErrors = Code(rawValue: 1560)
        public static let validationMissingMandatoryProperty = Code(rawValue: 1570)
        public static let validationRelationshipLacksMinimumCount = Code(rawValue: 1580)
        public static let validationRelationshipExceedsMaximumCount = Code(rawValue: 1590)
        public static let validationRelationshipDeniedDelete = Code(rawValue: 1600)
        public static let validationNumberTooLarge = Code(rawValue: 1610)
        public static let validationNumberTooSmall = Code(rawValue: 1620)
        public static let validationDateTooLate = Code(rawValue: 1630)
        public static let validationDateTooSoon = Code(rawValue: 1640)
        public static let validationStringTooLong = Code(rawValue: 1660)
        public static let validationStringTooShort = Code(rawValue: 1670)
        public static let validationStringPatternMatching = Code(rawValue: 1680)
        public static let objectInaccessibleException = Code(rawValue: 134_092)
        public static let managedObjectReferentialIntegrity = Code(rawValue: 133_000)
        public static let managedObjectExternalRelationship = Code(rawValue: 133_010)
        public static let managedObjectMerge = Code(rawValue: 133_020)
        public static let managedObjectConstraintMerge = Code(rawValue: 133_021)
        public static let persistentStoreInvalidType = Code(rawValue: 134_000)
        public static let persistentStoreTypeMismatch = Code(rawValue: 134_010)
        public static let persistentStoreIncompatibleSchema = Code(rawValue: 134_020)
        public static let persistentStoreSave = Code(rawValue: 134_030)
        public static let persistentStoreIncompleteSave = Code(rawValue: 134_040)
        public static let persistentStoreSaveConflicts = Code(rawValue: 134_050)
        public static let coreData = Code(rawValue: 134_060)
        public static let persistentStoreOperation = Code(rawValue: 134_070)
        public static let persistentStoreOpen = Code(rawValue: 134_080)
        public static let persistentStoreTimeout = Code(rawValue: 134_090)
        public static let persistentStoreUnsupportedRequestType = Code(rawValue: 134_091)
        public static let persistentStoreIncompatibleVersionHash = Code(rawValue: 134_100)
        public static let migration = Code(rawValue: 134_110)
        public static let migrationConstraintViolation = Code(rawValue: 134_111)
        public static let migrationCancelled = Code(rawValue: 134_120)
        public static let migrationMissingSourceModel = Code(rawValue: 134_130)
        public static let migrationMissingMappingModel = Code(rawValue: 134_140)
        public static let migrationManagerSourceStore = Code(rawValue: 134_150)
        public static let migrationManagerDestinationStore = Code(rawValue: 134_160)
        public static let managedObjectModelReferenceNotFound = Code(rawValue: 134_504)
        public static let sqlite = Code(rawValue: 134_180)
        public static let inferredMappingModel = Code(rawValue: 134_190)
        public static let externalRecordImport = Code(rawValue: 134_200)
    }

    public static let errorDomain = "NSCocoaErrorDomain"

    public var code: Code
    public var message: String
    public var underlyingError: (any Error)?
    /// The objects involved (validation failures, merge conflicts).
    public var affectedObjectIDs: [NSManagedObjectID]
    /// The property a validation error concerns (`NSValidationKeyErrorKey`).
    public var validationKey: String?
    /// The individual errors of a `validationMultipleErrors` error (`NSDetailedErrorsKey`).
    public var detailedErrors: [CoreDataError] = []
    /// The object that failed validation (`NSValidationObjectErrorKey`).
    public var validationObject: NSManagedObject?
    /// The value that failed validation (`NSValidationValueErrorKey`), as `value(forKey:)` reads it.
    public var validationValue: Any?
    /// The validation predicate the value failed (`NSValidationPredicateErrorKey`).
    public var validationPredicate: Predicates.NSPredicate?
    /// The objects the error concerns (`NSAffectedObjectsErrorKey`), when the context knows them.
    public var affectedObjects: [NSManagedObject] = []
    /// The conflicts a merge error reports (`"conflictList"`): ``NSMergeConflict``s for `managedObjectMerge`,
    /// ``NSConstraintConflict``s for `managedObjectConstraintMerge`.
    public var conflicts: [Any] = []

    public init(_ code: Code, _ message: String, underlyingError: (any Error)? = nil, affectedObjectIDs: [NSManagedObjectID] = []) {
        self.code = code
        self.message = message
        self.underlyingError = underlyingError
        self.affectedObjectIDs = affectedObjectIDs
    }

    public var description: String { message }
}

extension CoreDataError.Code {
    /// Lets `catch CoreDataError.Code.persistentStoreIncompatibleVersionHash` match.
    public static func ~= (code: CoreDataError.Code, error: any Error) -> Bool {
        (error as? CoreDataError)?.code == code
    }
}
