import Foundation
import Predicates
import Testing

/// `FETCH(request, context, countOnly)`, Core Data's fetch request expression, as a mapping model's source
/// expressions write it.
@Suite("FETCH expressions")
struct FetchExpressionTests {
    private let sourceFetch = "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \"Person\", \"TRUEPREDICATE\"), "
        + "$manager.sourceContext, NO)"

    @Test func aMappingModelsSourceExpressionParsesAndPrintsBack() throws {
        let expression = NSExpression(format: sourceFetch)
        #expect(expression.expressionType == .fetchRequest)
        #expect(NSExpression.ExpressionType.fetchRequest.rawValue == 50)
        #expect(expression.predicateFormat == sourceFetch)
        guard case .fetch(let request, let context, let countOnly) = expression.expressionNode else {
            Issue.record("\(expression.expressionNode) is not a fetch")
            return
        }
        #expect(request == .customFunction(receiver: .variable("manager"), selector: "fetchRequestForSourceEntityNamed:predicateString:",
                                           arguments: [.constant(.string("Person")), .constant(.string("TRUEPREDICATE"))]))
        #expect(context == .keyPathOnExpression(.variable("manager"), "sourceContext"))
        #expect(!countOnly)
        #expect(expression.expressionNode.variableNames == ["manager"])
    }

    @Test func theCountFlagIsYesOrNo() throws {
        #expect(NSExpression(format: "FETCH($request, $context, YES)").predicateFormat == "FETCH($request, $context, YES)")
        #expect(NSExpression(format: "FETCH($request, $context, 1)").predicateFormat == "FETCH($request, $context, YES)")
        #expect(throws: PredicateSyntaxError.self) { try NSExpression(parsing: "FETCH($request, $context, 2)") }
        #expect(throws: PredicateSyntaxError.self) { try NSExpression(parsing: "FETCH($request, $context)") }
    }

    @Test func aContextThatCannotFetchIsAnEvaluationError() {
        let expression = NSExpression(format: "FETCH($request, $context, NO)")
        #expect(throws: PredicateEvaluationError.self) {
            try PredicateEvaluator(evaluatedObject: nil, variables: ["request": "Person", "context": 3]).value(of: expression.expressionNode)
        }
    }
}
