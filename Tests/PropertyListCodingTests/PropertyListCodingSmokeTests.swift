import Testing

@Test func PropertyListCodingTargetBuilds() {
    #expect(Bool(true))
}
