import Testing

@Test func CommandLineTargetBuilds() {
    #expect(Bool(true))
}
