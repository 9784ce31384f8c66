import CoreDataModel
import Testing

/// A model's back references (a property's entity, a relationship's destination, a superentity) are weak: they read
/// the entity while it lives and nil once it is gone, and they keep nothing alive.
struct ModelBackReferenceTests {
    @Test func backReferencesFollowTheirEntityAndDoNotKeepItAlive() throws {
        let attribute = NSAttributeDescription(name: "name", type: .stringAttributeType)
        let relationship = NSRelationshipDescription(name: "owner", destinationEntityName: "Owner")
        let child = NSEntityDescription(name: "Child")
        child.superentityName = "Parent"
        weak var goneParent: NSEntityDescription?
        weak var goneOwner: NSEntityDescription?
        do {
            let parent = NSEntityDescription(name: "Parent")
            parent.setProperties([attribute, relationship])
            let owner = NSEntityDescription(name: "Owner")
            let model = NSManagedObjectModel(entities: [parent, owner, child])
            #expect(attribute.entity === parent)
            #expect(relationship.entity === parent)
            #expect(relationship.destinationEntity === owner)
            #expect(child.superentity === parent)
            #expect(child.rootEntity === parent)
            #expect(child.inheritanceTreeToken == parent.inheritanceTreeToken)
            #expect(owner.inheritanceTreeToken != parent.inheritanceTreeToken)
            relationship.destinationEntity = child
            #expect(relationship.destinationEntity === child)
            relationship.destinationEntity = owner
            goneParent = parent
            goneOwner = owner
            _ = model
        }
        #expect(goneParent == nil && goneOwner == nil, "back references keep no entity alive")
        #expect(attribute.entity == nil)
        #expect(relationship.destinationEntity == nil)
        #expect(child.superentity == nil)
        #expect(child.rootEntity === child)
    }
}
