import Testing

@Test func KeyValueCodingTargetBuilds() {
    #expect(Bool(true))
}
