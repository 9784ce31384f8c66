import Testing

@Test func CoreDataModelTargetBuilds() {
    #expect(Bool(true))
}
