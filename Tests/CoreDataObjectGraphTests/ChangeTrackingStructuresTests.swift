@testable import CoreDataObjectGraph
import CoreDataModel
import Foundation
import Testing

/// The small structures behind change tracking: the slot bit set, and value conversion's exact-type fast path.
struct ChangeTrackingStructuresTests {
    @Test func slotSetAgreesWithASetOfIntegersAcrossTheInlineWordAndBeyond() {
        var generator = SystemRandomNumberGenerator()
        var slots = SlotSet()
        var reference = Set<Int>()
        for _ in 0..<2_000 {
            let slot = Int.random(in: 0..<200, using: &generator)
            if Bool.random(using: &generator) {
                slots.insert(slot)
                reference.insert(slot)
            } else {
                slots.remove(slot)
                reference.remove(slot)
            }
            #expect(slots.contains(slot) == reference.contains(slot))
        }
        #expect(Array(slots) == reference.sorted())
        #expect(slots.count == reference.count)
        #expect(slots.isEmpty == reference.isEmpty)
        slots.removeAll()
        #expect(slots.isEmpty && Array(slots).isEmpty)
        #expect(SlotSet([0, 63, 64, 127, 128]).sorted() == [0, 63, 64, 127, 128])
        // Removing a slot beyond the words in use is no change.
        var small = SlotSet([3])
        small.remove(500)
        #expect(Array(small) == [3])
    }

    @Test func slotSetsAreEqualWhenTheyHoldTheSameSlotsWhateverTheirWords() {
        var grown = SlotSet([3, 200])
        grown.remove(200)  // leaves zero words behind
        #expect(grown == SlotSet([3]) && SlotSet([3]) == grown)
        #expect(grown != SlotSet([4]) && SlotSet([3, 70]) != SlotSet([3, 71]) && SlotSet([3, 70]) != SlotSet([3]))
        #expect(SlotSet([1, 64, 190]) == SlotSet([190, 64, 1]))
    }

    @Test func valuesOfTheAttributesOwnTypeAndOfOtherTypesConvertAlike() throws {
        func attribute(_ type: NSAttributeType) -> NSAttributeDescription { NSAttributeDescription(name: "a", type: type) }
        let int16 = attribute(.integer16AttributeType)
        #expect(try StoredValue(assigning: Int16(7), to: int16) == .attribute(.integer(7)))
        #expect(try StoredValue(assigning: 7, to: int16) == .attribute(.integer(7)))
        #expect(try StoredValue(assigning: Int64(7), to: int16) == .attribute(.integer(7)))
        // Out of range by either path is an error, never a truncation.
        #expect(throws: ValueAssignmentError.self) { try StoredValue(assigning: 70_000, to: int16) }
        #expect(throws: ValueAssignmentError.self) { try StoredValue(assigning: Int64(70_000), to: int16) }
        let text = attribute(.stringAttributeType)
        #expect(try StoredValue(assigning: "x", to: text) == .attribute(.string("x")))
        let optionalText: String? = "y"
        #expect(try StoredValue(assigning: optionalText as Any, to: text) == .attribute(.string("y")))
        #expect(try StoredValue(assigning: NSNull(), to: text) == .null)
        #expect(throws: ValueAssignmentError.self) { try StoredValue(assigning: 3, to: text) }
        let double = attribute(.doubleAttributeType)
        #expect(try StoredValue(assigning: 1.5, to: double) == .attribute(.double(1.5)))
        #expect(try StoredValue(assigning: Float(1.5), to: double) == .attribute(.double(1.5)))
        #expect(try StoredValue(assigning: 2, to: double) == .attribute(.double(2)))
        let date = attribute(.dateAttributeType)
        let now = Date(timeIntervalSinceReferenceDate: 12.5)
        #expect(try StoredValue(assigning: now, to: date) == .attribute(.date(now)))
        #expect(throws: ValueAssignmentError.self) { try StoredValue(assigning: "today", to: date) }
    }
}
