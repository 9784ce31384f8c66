/// The `$classes` lists `NSKeyedArchiver` writes for the Foundation classes the builder uses; other classes get
/// `[name, "NSObject"]` unless the caller gives their hierarchy.
enum FoundationClassHierarchy {
    private static let known: [String: [String]] = [
        "NSArray": ["NSArray", "NSObject"],
        "NSMutableArray": ["NSMutableArray", "NSArray", "NSObject"],
        "NSSet": ["NSSet", "NSObject"],
        "NSMutableSet": ["NSMutableSet", "NSSet", "NSObject"],
        "NSOrderedSet": ["NSOrderedSet", "NSObject"],
        "NSMutableOrderedSet": ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"],
        "NSDictionary": ["NSDictionary", "NSObject"],
        "NSMutableDictionary": ["NSMutableDictionary", "NSDictionary", "NSObject"],
        "NSString": ["NSString", "NSObject"],
        "NSMutableString": ["NSMutableString", "NSString", "NSObject"],
        "NSData": ["NSData", "NSObject"],
        "NSMutableData": ["NSMutableData", "NSData", "NSObject"],
        "NSDate": ["NSDate", "NSObject"],
        "NSNull": ["NSNull", "NSObject"],
        "NSUUID": ["NSUUID", "NSObject"],
        "NSURL": ["NSURL", "NSObject"],
        "NSKnownKeysDictionary1": [
            "NSKnownKeysDictionary1", "NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary", "NSObject",
        ],
        "NSKnownKeysMappingStrategy1": ["NSKnownKeysMappingStrategy1", "NSKnownKeysMappingStrategy", "NSObject"],
    ]

    /// The class list for `className`.
    static func hierarchy(of className: String) -> [String] {
        known[className] ?? (className == "NSObject" ? ["NSObject"] : [className, "NSObject"])
    }
}
