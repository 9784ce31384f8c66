import Testing

@Test func PredicatesTargetBuilds() {
    #expect(Bool(true))
}
