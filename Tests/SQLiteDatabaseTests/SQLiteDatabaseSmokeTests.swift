import Testing

@Test func SQLiteDatabaseTargetBuilds() {
    #expect(Bool(true))
}
