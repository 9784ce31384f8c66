import Foundation
import OpenCoreData

// The model-layer half of the compile probe in AppleAPISurfaceTests.swift (descriptions, models, migration and
// constants), split from it to keep each file to one reading; the same rules hold.

// MARK: NSEntityDescription

func probeEntity(_ entity: NSEntityDescription, _ context: NSManagedObjectContext) {
    let found: NSEntityDescription? = NSEntityDescription.entity(forEntityName: "Item", in: context)
    let inserted: NSManagedObject = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
    _ = (found, inserted)
    let model: NSManagedObjectModel = entity.managedObjectModel
    entity.managedObjectClassName = keep(entity.managedObjectClassName)
    entity.name = keep(entity.name)
    entity.isAbstract = keep(entity.isAbstract)
    let byName: [String: NSEntityDescription] = entity.subentitiesByName
    entity.subentities = keep(entity.subentities)
    let parent: NSEntityDescription? = entity.superentity
    let properties: [String: NSPropertyDescription] = entity.propertiesByName
    entity.properties = keep(entity.properties)
    entity.userInfo = keep(entity.userInfo)
    let attributes: [String: NSAttributeDescription] = entity.attributesByName
    let relationships: [String: NSRelationshipDescription] = entity.relationshipsByName
    let toDestination: [NSRelationshipDescription] = entity.relationships(forDestination: entity)
    let kind: Bool = entity.isKindOf(entity: entity)
    let hash: Data = entity.versionHash
    _ = (model, byName, parent, properties, attributes, relationships, toDestination, kind, hash)
    entity.versionHashModifier = keep(entity.versionHashModifier)
    entity.renamingIdentifier = keep(entity.renamingIdentifier)
    let indexes: [NSFetchIndexDescription] = entity.indexes
    entity.indexes = indexes
    entity.uniquenessConstraints = keep(entity.uniquenessConstraints)
    let copy: Any = entity.copy()
    _ = copy
}

// MARK: NSPropertyDescription and its subclasses

func probeProperties(_ property: NSPropertyDescription, _ attribute: NSAttributeDescription,
                             _ relationship: NSRelationshipDescription, _ entity: NSEntityDescription) {
    let owner: NSEntityDescription = property.entity
    _ = owner
    property.name = keep(property.name)
    property.isOptional = keep(property.isOptional)
    property.isTransient = keep(property.isTransient)
    let predicates: [NSPredicate] = property.validationPredicates
    let warnings: [Any] = property.validationWarnings
    property.setValidationPredicates(predicates, withValidationWarnings: warnings as? [String])
    property.userInfo = keep(property.userInfo)
    let hash: Data = property.versionHash
    _ = hash
    property.versionHashModifier = keep(property.versionHashModifier)
    property.isIndexedBySpotlight = keep(property.isIndexedBySpotlight)
    property.renamingIdentifier = keep(property.renamingIdentifier)
    let copy: Any = property.copy()
    _ = copy

    attribute.attributeType = keep(attribute.attributeType)
    attribute.attributeValueClassName = keep(attribute.attributeValueClassName)
    attribute.defaultValue = keep(attribute.defaultValue)
    attribute.valueTransformerName = keep(attribute.valueTransformerName)
    attribute.allowsExternalBinaryDataStorage = keep(attribute.allowsExternalBinaryDataStorage)
    attribute.preservesValueInHistoryOnDeletion = keep(attribute.preservesValueInHistoryOnDeletion)
    attribute.allowsCloudEncryption = keep(attribute.allowsCloudEncryption)
    let attributeTypes: [NSAttributeType] = [.undefinedAttributeType, .integer16AttributeType, .integer32AttributeType,
                                             .integer64AttributeType, .decimalAttributeType, .doubleAttributeType,
                                             .floatAttributeType, .stringAttributeType, .booleanAttributeType,
                                             .dateAttributeType, .binaryDataAttributeType, .UUIDAttributeType,
                                             .URIAttributeType, .transformableAttributeType, .objectIDAttributeType,
                                             .compositeAttributeType]
    _ = attributeTypes
    attribute.type = .string
    let swiftTypes: [NSAttributeDescription.AttributeType] = [.undefined, .integer16, .integer32, .integer64, .decimal,
                                                              .double, .float, .string, .boolean, .date, .binaryData,
                                                              .uuid, .uri, .transformable, .objectID, .composite]
    _ = swiftTypes
    // _ = swiftTypes

    relationship.destinationEntity = relationship.destinationEntity ?? entity
    relationship.inverseRelationship = keep(relationship.inverseRelationship)
    relationship.maxCount = keep(relationship.maxCount)
    relationship.minCount = keep(relationship.minCount)
    relationship.deleteRule = keep(relationship.deleteRule)
    let rules: [NSDeleteRule] = [.noActionDeleteRule, .nullifyDeleteRule, .cascadeDeleteRule, .denyDeleteRule]
    _ = rules
    let toMany: Bool = relationship.isToMany
    relationship.isOrdered = keep(relationship.isOrdered)
    _ = toMany

    let fetched = NSFetchedPropertyDescription()
    // DEVIATION (NSFetchRequest<NSManagedObject> for NSFetchRequestResult):
    fetched.fetchRequest = NSFetchRequest<NSManagedObject>(entityName: "Item")
    let fetchedRequest: NSFetchRequest<NSManagedObject>? = fetched.fetchRequest
    _ = fetchedRequest

    let derived = NSDerivedAttributeDescription()
    derived.derivationExpression = NSExpression(forKeyPath: "items.@count")
    let derivation: NSExpression? = derived.derivationExpression
    _ = derivation
}

// MARK: NSManagedObjectModel, NSFetchIndexDescription, NSFetchIndexElementDescription

func probeModel(_ model: NSManagedObjectModel, _ entity: NSEntityDescription, _ url: URL,
                        _ attribute: NSAttributeDescription) throws {
    let merged: NSManagedObjectModel? = NSManagedObjectModel.mergedModel(from: [Bundle.main])
    let forMetadata: NSManagedObjectModel? = NSManagedObjectModel.mergedModel(from: nil, forStoreMetadata: [:])
    let byMerging: NSManagedObjectModel? = NSManagedObjectModel(byMerging: [model])
    let byMergingForMetadata: NSManagedObjectModel? = NSManagedObjectModel(byMerging: [model], forStoreMetadata: [:])
    let fromFile: NSManagedObjectModel? = NSManagedObjectModel(contentsOf: url)
    _ = (merged, forMetadata, byMerging, byMergingForMetadata, fromFile)
    let byName: [String: NSEntityDescription] = model.entitiesByName
    model.entities = keep(model.entities)
    let configurations: [String] = model.configurations
    let members: [NSEntityDescription]? = model.entities(forConfigurationName: "Default")
    model.setEntities([entity], forConfigurationName: "Default")
    // DEVIATION (NSFetchRequest<NSManagedObject> for NSFetchRequestResult; any typed request is taken):
    // model.setFetchRequestTemplate(NSFetchRequest<NSFetchRequestResult>(entityName: "Item"), forName: "All")
    model.setFetchRequestTemplate(NSFetchRequest<NSManagedObject>(entityName: "Item"), forName: "All")
    // DEVIATION (NSFetchRequest<NSManagedObject> for NSFetchRequestResult; fetchRequestTemplatesByName holds the model layer's FetchRequestTemplate):
    // let template: NSFetchRequest<NSFetchRequestResult>? = model.fetchRequestTemplate(forName: "All")
    // let substituted: NSFetchRequest<NSFetchRequestResult>? = model.fetchRequestFromTemplate(withName: "All",
    // substitutionVariables: ["NAME": "Ada"])
    // let templates: [String: NSFetchRequest<NSFetchRequestResult>] = model.fetchRequestTemplatesByName
    let template: NSFetchRequest<NSManagedObject>? = model.fetchRequestTemplate(forName: "All")
    let substituted: NSFetchRequest<NSManagedObject>? = model.fetchRequestFromTemplate(withName: "All",
                                                                                       substitutionVariables: ["NAME": "Ada"])
    let templates = model.fetchRequestTemplatesByName
    model.localizationDictionary = keep(model.localizationDictionary)
    let compatible: Bool = model.isConfiguration(withName: nil, compatibleWithStoreMetadata: [:])
    let hashes: [String: Data] = model.entityVersionHashesByName
    model.versionIdentifiers = keep(model.versionIdentifiers)
    let checksum: String = model.versionChecksum
    let checksums: [String: String] = try NSManagedObjectModel.checksumsForVersionedModel(at: url)
    let copy: Any = model.copy()
    _ = (byName, configurations, members, template, substituted, templates, compatible, hashes, checksum, checksums, copy)

    let element = NSFetchIndexElementDescription(property: attribute, collationType: .binary)
    let indexed: NSPropertyDescription? = element.property
    let propertyName: String? = element.propertyName
    element.collationType = .rTree
    element.isAscending = keep(element.isAscending)
    let collation: NSFetchIndexElementType = element.collationType
    let owner: NSFetchIndexDescription? = element.indexDescription
    _ = (indexed, propertyName, collation, owner)
    let index = NSFetchIndexDescription(name: "byName", elements: [element])
    let indexName: String = index.name
    let elements: [NSFetchIndexElementDescription] = index.elements
    _ = (indexName, elements)
    index.name = keep(index.name); index.elements = keep(index.elements)
    let indexEntity: NSEntityDescription? = index.entity
    _ = indexEntity
    index.partialIndexPredicate = keep(index.partialIndexPredicate)
}

// MARK: Migration

private final class ProbePolicy: NSEntityMigrationPolicy {
    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {}
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
                                             manager: NSMigrationManager) throws {}
    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}
    override func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping,
                                      manager: NSMigrationManager) throws {}
    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}
    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}
    override func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {}
}

private final class ProbeMigrationManager: NSMigrationManager, @unchecked Sendable {
    override func migrateStore(from sourceURL: URL, sourceType: String, options sOptions: [AnyHashable: Any]? = nil,
                               with mapping: NSMappingModel?, toDestinationURL dURL: URL, destinationType dType: String,
                               destinationOptions dOptions: [AnyHashable: Any]? = nil) throws {
        try super.migrateStore(from: sourceURL, sourceType: sourceType, options: sOptions, with: mapping, toDestinationURL: dURL,
                               destinationType: dType, destinationOptions: dOptions)
    }
    override func reset() { super.reset() }
    override func cancelMigrationWithError(_ error: any Error) { super.cancelMigrationWithError(error) }
    override func associate(sourceInstance: NSManagedObject, withDestinationInstance destinationInstance: NSManagedObject,
                            for entityMapping: NSEntityMapping) {
        super.associate(sourceInstance: sourceInstance, withDestinationInstance: destinationInstance, for: entityMapping)
    }
    override func destinationInstances(forEntityMappingName mappingName: String, sourceInstances: [NSManagedObject]?) -> [NSManagedObject] {
        super.destinationInstances(forEntityMappingName: mappingName, sourceInstances: sourceInstances)
    }
    override func sourceInstances(forEntityMappingName mappingName: String, destinationInstances: [NSManagedObject]?) -> [NSManagedObject] {
        super.sourceInstances(forEntityMappingName: mappingName, destinationInstances: destinationInstances)
    }
}

func probeMigration(_ source: NSManagedObjectModel, _ destination: NSManagedObjectModel, _ url: URL,
                            _ object: NSManagedObject) throws {
    let found: NSMappingModel? = NSMappingModel(from: [Bundle.main], forSourceModel: source, destinationModel: destination)
    let inferred: NSMappingModel = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
    let fromFile: NSMappingModel? = NSMappingModel(contentsOf: url)
    _ = (found, fromFile)
    inferred.entityMappings = keep(inferred.entityMappings)
    let byName: [String: NSEntityMapping] = inferred.entityMappingsByName
    _ = byName

    let mapping = NSEntityMapping()
    mapping.name = keep(mapping.name)
    mapping.mappingType = .customEntityMappingType
    let types: [NSEntityMappingType] = [.undefinedEntityMappingType, .customEntityMappingType, .addEntityMappingType,
                                        .removeEntityMappingType, .copyEntityMappingType, .transformEntityMappingType]
    _ = types
    mapping.sourceEntityName = keep(mapping.sourceEntityName)
    mapping.sourceEntityVersionHash = keep(mapping.sourceEntityVersionHash)
    mapping.destinationEntityName = keep(mapping.destinationEntityName)
    mapping.destinationEntityVersionHash = keep(mapping.destinationEntityVersionHash)
    mapping.attributeMappings = keep(mapping.attributeMappings)
    mapping.relationshipMappings = keep(mapping.relationshipMappings)
    mapping.sourceExpression = keep(mapping.sourceExpression)
    mapping.userInfo = keep(mapping.userInfo)
    mapping.entityMigrationPolicyClassName = keep(mapping.entityMigrationPolicyClassName)

    let property = NSPropertyMapping()
    property.name = keep(property.name)
    property.valueExpression = keep(property.valueExpression)
    property.userInfo = keep(property.userInfo)
    let valueExpression: NSExpression? = property.valueExpression
    let sourceExpression: NSExpression? = mapping.sourceExpression
    _ = (valueExpression, sourceExpression)
    property.valueExpression = NSExpression(format: "$source.title")
    property.valueExpression = NSExpression(
        format: "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"PersonToOwner\", $source.owner)")
    mapping.sourceExpression = NSExpression(format: "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\" , "
                                                + "\"Person\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)")
    let fetchType: NSExpression.ExpressionType = NSFetchRequestExpressionType
    let fetchExpression: NSExpression = NSFetchRequestExpression.expression(
        forFetch: NSExpression(forConstantValue: nil), context: NSExpression(forVariable: "context"), countOnly: true)
    if let parts = fetchExpression as? NSFetchRequestExpression {
        let pieces: (NSExpression, NSExpression, Bool) = (parts.requestExpression, parts.contextExpression, parts.isCountOnlyRequest)
        _ = pieces
    }
    _ = fetchType
    let subclassed: NSMigrationManager = ProbeMigrationManager(sourceModel: source, destinationModel: destination)
    _ = subclassed

    let manager = NSMigrationManager(sourceModel: source, destinationModel: destination)
    try manager.migrateStore(from: url, sourceType: NSSQLiteStoreType, options: nil, with: inferred,
                             toDestinationURL: url, destinationType: NSSQLiteStoreType, destinationOptions: nil)
    try manager.migrateStore(from: url, type: .sqlite, options: nil, mapping: inferred, to: url, type: .sqlite, options: nil)
    manager.usesStoreSpecificMigrationManager = keep(manager.usesStoreSpecificMigrationManager)
    let models: [NSManagedObjectModel] = [manager.sourceModel, manager.destinationModel]
    // DEVIATION (mappingModel, sourceContext, destinationContext and currentEntityMapping are nil outside a migration):
    // let mappingModel: NSMappingModel = manager.mappingModel
    // let contexts: [NSManagedObjectContext] = [manager.sourceContext, manager.destinationContext]
    let mappingModel: NSMappingModel? = manager.mappingModel
    let contexts: [NSManagedObjectContext?] = [manager.sourceContext, manager.destinationContext]
    let sourceEntity: NSEntityDescription? = manager.sourceEntity(for: mapping)
    let destinationEntity: NSEntityDescription? = manager.destinationEntity(for: mapping)
    manager.reset()
    manager.userInfo = keep(manager.userInfo)
    let progress: Float = manager.migrationProgress
    // DEVIATION (as above):
    // let current: NSEntityMapping = manager.currentEntityMapping
    let current: NSEntityMapping? = manager.currentEntityMapping
    manager.cancelMigrationWithError(CocoaError(.migrationCancelled))
    manager.associate(sourceInstance: object, withDestinationInstance: object, for: mapping)
    let destinations: [NSManagedObject] = manager.destinationInstances(forEntityMappingName: "Item", sourceInstances: [object])
    let sources: [NSManagedObject] = manager.sourceInstances(forEntityMappingName: "Item", destinationInstances: [object])
    _ = (models, mappingModel, contexts, sourceEntity, destinationEntity, progress, current, destinations, sources)
}

// MARK: CoreDataErrors.h, store types and options

func probeConstants() {
    let codes: [Int] = [
        NSManagedObjectValidationError, NSManagedObjectConstraintValidationError, NSValidationMultipleErrorsError,
        NSValidationMissingMandatoryPropertyError, NSValidationRelationshipLacksMinimumCountError,
        NSValidationRelationshipExceedsMaximumCountError, NSValidationRelationshipDeniedDeleteError,
        NSValidationNumberTooLargeError, NSValidationNumberTooSmallError, NSValidationDateTooLateError,
        NSValidationDateTooSoonError, NSValidationInvalidDateError, NSValidationStringTooLongError,
        NSValidationStringTooShortError, NSValidationStringPatternMatchingError, NSValidationInvalidURIError,
        NSManagedObjectContextLockingError, NSPersistentStoreCoordinatorLockingError,
        NSManagedObjectReferentialIntegrityError, NSManagedObjectExternalRelationshipError, NSManagedObjectMergeError,
        NSManagedObjectConstraintMergeError, NSPersistentStoreInvalidTypeError, NSPersistentStoreTypeMismatchError,
        NSPersistentStoreIncompatibleSchemaError, NSPersistentStoreSaveError, NSPersistentStoreIncompleteSaveError,
        NSPersistentStoreSaveConflictsError, NSCoreDataError, NSPersistentStoreOperationError, NSPersistentStoreOpenError,
        NSPersistentStoreTimeoutError, NSPersistentStoreUnsupportedRequestTypeError,
        NSPersistentStoreIncompatibleVersionHashError, NSMigrationError, NSMigrationConstraintViolationError,
        NSMigrationCancelledError, NSMigrationMissingSourceModelError, NSMigrationMissingMappingModelError,
        NSMigrationManagerSourceStoreError, NSMigrationManagerDestinationStoreError, NSEntityMigrationPolicyError,
        NSSQLiteError, NSInferredMappingModelError, NSExternalRecordImportError,
    ]
    let keys: [String] = [
        NSDetailedErrorsKey, NSValidationObjectErrorKey, NSValidationKeyErrorKey, NSValidationPredicateErrorKey,
        NSValidationValueErrorKey, NSAffectedStoresErrorKey, NSAffectedObjectsErrorKey, NSPersistentStoreSaveConflictsErrorKey,
    ]
    // GAP (NSSQLiteErrorDomain: SQLite failures are underlying errors of the library's own type):
    // NSSQLiteErrorDomain
    let cocoaCodes: [CocoaError.Code] = [.managedObjectValidation, .validationMultipleErrors,
                                         .validationMissingMandatoryProperty, .persistentStoreSave,
                                         .managedObjectMerge, .managedObjectConstraintMerge, .coreData]
    let storeTypes: [String] = [NSSQLiteStoreType, NSBinaryStoreType, NSInMemoryStoreType, NSXMLStoreType]
    let swiftStoreTypes: [NSPersistentStore.StoreType] = [.sqlite, .binary, .inMemory, .xml]
    let options: [String] = [
        NSStoreTypeKey, NSStoreUUIDKey, NSReadOnlyPersistentStoreOption, NSPersistentStoreTimeoutOption,
        NSSQLitePragmasOption, NSIgnorePersistentStoreVersioningOption, NSMigratePersistentStoresAutomaticallyOption,
        NSInferMappingModelAutomaticallyOption, NSStoreModelVersionHashesKey, NSStoreModelVersionIdentifiersKey,
        NSStoreModelVersionChecksumKey, NSSQLiteAnalyzeOption, NSSQLiteManualVacuumOption,
    ]
    // GAP (options not acted on yet, so not declared: a program that sets one must not believe it took effect):
    // NSPersistentStoreOSCompatibility, NSValidateXMLStoreOption,
    // NSPersistentStoreForceDestroyOption, NSPersistentStoreConnectionPoolMaxSizeKey, NSBinaryStoreSecureDecodingClasses,
    // NSBinaryStoreInsecureDecodingCompatibilityOption
    _ = (codes, keys, cocoaCodes, storeTypes, swiftStoreTypes, options)
}
