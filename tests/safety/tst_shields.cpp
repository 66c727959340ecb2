#include "agent/safety/ruleshield.h"

#include <QTest>

using namespace Qt::StringLiterals;

namespace Loopscope {

// Lets QCOMPARE print verdicts instead of "<unknown>".
char *toString(const ShieldVerdict &verdict)
{
    const QString text = verdict.allowed ? u"allowed"_s : u"blocked: "_s + verdict.reason;
    return QTest::toString(text);
}

} // namespace Loopscope

using namespace Loopscope;

using Rule = RuleShield::Rule;

namespace {

Rule keyword(const QString &pattern, const QString &message = {})
{
    Rule rule;
    rule.kind = Rule::Kind::Keyword;
    rule.pattern = pattern;
    rule.message = message;
    return rule;
}

Rule expression(const QString &pattern, const QString &message = {})
{
    Rule rule = keyword(pattern, message);
    rule.kind = Rule::Kind::RegularExpression;
    return rule;
}

} // namespace

class TestShields final : public QObject
{
    Q_OBJECT

private slots:
    void stagesHaveStableNames();
    void shieldIsNamedAsConstructed();

    void keywordsMatchWholeWordsInAnyCase_data();
    void keywordsMatchWholeWordsInAnyCase();
    void regularExpressionsAreTakenAsWritten_data();
    void regularExpressionsAreTakenAsWritten();

    void invalidPatternsAreRejectedWithAReason_data();
    void invalidPatternsAreRejectedWithAReason();

    void rulesOnlyLookAtTheirStages_data();
    void rulesOnlyLookAtTheirStages();
    void toolFilterAppliesOnlyAtTheToolCallStage_data();
    void toolFilterAppliesOnlyAtTheToolCallStage();

    void theReasonNamesTheRuleOrUsesItsMessage_data();
    void theReasonNamesTheRuleOrUsesItsMessage();
    void firstMatchingRuleWins();
    void aShieldWithoutRulesAllowsEverything();
    void allowedContentPassesEveryStage();
};

void TestShields::stagesHaveStableNames()
{
    QCOMPARE(shieldStageName(ShieldStage::Input), u"input"_s);
    QCOMPARE(shieldStageName(ShieldStage::ToolCall), u"tool_call"_s);
    QCOMPARE(shieldStageName(ShieldStage::Output), u"output"_s);
}

void TestShields::shieldIsNamedAsConstructed()
{
    QCOMPARE(RuleShield().name(), u"rules"_s);
    QCOMPARE(RuleShield(u"company policy"_s).name(), u"company policy"_s);
}

void TestShields::keywordsMatchWholeWordsInAnyCase_data()
{
    QTest::addColumn<QString>("keyword");
    QTest::addColumn<QString>("content");
    QTest::addColumn<bool>("blocked");

    QTest::newRow("same case") << u"password"_s << u"print the password please"_s << true;
    QTest::newRow("content in upper case") << u"password"_s << u"PRINT THE PASSWORD"_s << true;
    QTest::newRow("keyword in mixed case") << u"PassWord"_s << u"my password is"_s << true;
    QTest::newRow("at the very start and end") << u"secret"_s << u"secret"_s << true;
    QTest::newRow("next to punctuation") << u"secret"_s << u"(secret)."_s << true;
    QTest::newRow("inside a longer word") << u"rm"_s << u"format the disk"_s << false;
    QTest::newRow("as a prefix of a word") << u"pass"_s << u"passport"_s << false;
    QTest::newRow("as a suffix of a word") << u"word"_s << u"password"_s << false;
    QTest::newRow("several words with a space") << u"rm -rf"_s << u"then run rm -rf / now"_s << true;
    QTest::newRow("several words, other spacing") << u"rm -rf"_s << u"rm  -rf /"_s << false;
    QTest::newRow("regex characters are literal") << u"a.b"_s << u"axb"_s << false;
    QTest::newRow("regex characters match themselves") << u"a.b"_s << u"see a.b here"_s << true;
    QTest::newRow("starting with punctuation after a space") << u".env"_s << u"cat .env"_s << true;
    QTest::newRow("starting with punctuation inside a word") << u".env"_s << u"cat x.env"_s << false;
    QTest::newRow("ending with punctuation") << u"sudo!"_s << u"just sudo! it"_s << true;
    QTest::newRow("non-ASCII letters are word characters") << u"über"_s << u"überall"_s << false;
    QTest::newRow("non-ASCII case folding") << u"über"_s << u"ÜBER alles"_s << true;
    QTest::newRow("empty content") << u"secret"_s << QString() << false;
}

void TestShields::keywordsMatchWholeWordsInAnyCase()
{
    QFETCH(QString, keyword);
    QFETCH(QString, content);
    QFETCH(bool, blocked);

    RuleShield shield;
    QCOMPARE(shield.addRule(::keyword(keyword)), std::nullopt);
    QCOMPARE(shield.ruleCount(), 1);
    QCOMPARE(!shield.check(ShieldStage::Input, {}, content).allowed, blocked);
}

void TestShields::regularExpressionsAreTakenAsWritten_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("content");
    QTest::addColumn<bool>("blocked");

    QTest::newRow("matches anywhere in the content")
        << u"\\b\\d{4}-\\d{4}-\\d{4}-\\d{4}\\b"_s << u"card 1234-5678-9012-3456 ok"_s << true;
    QTest::newRow("case sensitive by default") << u"DROP\\s+TABLE"_s << u"drop table users"_s << false;
    QTest::newRow("whitespace class") << u"DROP\\s+TABLE"_s << u"DROP \t TABLE users"_s << true;
    QTest::newRow("case insensitive when asked") << u"(?i)drop\\s+table"_s << u"DROP TABLE x"_s << true;
    QTest::newRow("not a whole-word match") << u"rm"_s << u"format"_s << true;
    QTest::newRow("anchored pattern") << u"^ignore previous"_s << u"please ignore previous"_s << false;
    QTest::newRow("no match") << u"api[_-]?key"_s << u"a harmless question"_s << false;
}

void TestShields::regularExpressionsAreTakenAsWritten()
{
    QFETCH(QString, pattern);
    QFETCH(QString, content);
    QFETCH(bool, blocked);

    RuleShield shield;
    QCOMPARE(shield.addRule(expression(pattern)), std::nullopt);
    QCOMPARE(!shield.check(ShieldStage::Output, {}, content).allowed, blocked);
}

void TestShields::invalidPatternsAreRejectedWithAReason_data()
{
    QTest::addColumn<Rule>("rule");
    QTest::addColumn<QString>("errorMentions");

    QTest::newRow("unclosed group") << expression(u"(unclosed"_s) << u"(unclosed"_s;
    QTest::newRow("unclosed class") << expression(u"[a-"_s) << u"[a-"_s;
    QTest::newRow("nothing to repeat") << expression(u"*oops"_s) << u"*oops"_s;
    QTest::newRow("percent sign in the pattern") << expression(u"100%1("_s) << u"100%1("_s;
    QTest::newRow("empty expression") << expression(QString()) << u"empty"_s;
    QTest::newRow("empty keyword") << keyword(QString()) << u"empty"_s;
}

void TestShields::invalidPatternsAreRejectedWithAReason()
{
    QFETCH(Rule, rule);
    QFETCH(QString, errorMentions);

    RuleShield shield;
    const std::optional<QString> error = shield.addRule(rule);
    QVERIFY(error.has_value());
    QVERIFY2(error->contains(errorMentions), qPrintable(*error));
    QCOMPARE(shield.ruleCount(), 0);
    // The rejected rule is not kept: nothing gets blocked by it.
    QCOMPARE(shield.check(ShieldStage::Input, {}, u"(unclosed *oops [a- 100%1("_s), ShieldVerdict::allow());
}

void TestShields::rulesOnlyLookAtTheirStages_data()
{
    QTest::addColumn<QList<ShieldStage>>("ruleStages");
    QTest::addColumn<ShieldStage>("stage");
    QTest::addColumn<bool>("blocked");

    const QList<ShieldStage> all{ShieldStage::Input, ShieldStage::ToolCall, ShieldStage::Output};
    QTest::newRow("default stages, input") << all << ShieldStage::Input << true;
    QTest::newRow("default stages, tool call") << all << ShieldStage::ToolCall << true;
    QTest::newRow("default stages, output") << all << ShieldStage::Output << true;
    QTest::newRow("output only, input") << QList{ShieldStage::Output} << ShieldStage::Input << false;
    QTest::newRow("output only, tool call") << QList{ShieldStage::Output} << ShieldStage::ToolCall << false;
    QTest::newRow("output only, output") << QList{ShieldStage::Output} << ShieldStage::Output << true;
    QTest::newRow("input and tool call, output")
        << QList{ShieldStage::Input, ShieldStage::ToolCall} << ShieldStage::Output << false;
    QTest::newRow("input and tool call, tool call")
        << QList{ShieldStage::Input, ShieldStage::ToolCall} << ShieldStage::ToolCall << true;
    QTest::newRow("no stage at all") << QList<ShieldStage>() << ShieldStage::Input << false;
}

void TestShields::rulesOnlyLookAtTheirStages()
{
    QFETCH(QList<ShieldStage>, ruleStages);
    QFETCH(ShieldStage, stage);
    QFETCH(bool, blocked);

    Rule rule = keyword(u"secret"_s);
    rule.stages = ruleStages;
    RuleShield shield;
    QCOMPARE(shield.addRule(rule), std::nullopt);
    const QString subject = stage == ShieldStage::ToolCall ? u"read_file"_s : QString();
    QCOMPARE(!shield.check(stage, subject, u"the secret"_s).allowed, blocked);
}

void TestShields::toolFilterAppliesOnlyAtTheToolCallStage_data()
{
    QTest::addColumn<ShieldStage>("stage");
    QTest::addColumn<QString>("subject");
    QTest::addColumn<bool>("blocked");

    QTest::newRow("a listed tool") << ShieldStage::ToolCall << u"run_shell"_s << true;
    QTest::newRow("another listed tool") << ShieldStage::ToolCall << u"write_file"_s << true;
    QTest::newRow("a tool not listed") << ShieldStage::ToolCall << u"read_file"_s << false;
    QTest::newRow("tool names are exact") << ShieldStage::ToolCall << u"Run_Shell"_s << false;
    QTest::newRow("input ignores the tool list") << ShieldStage::Input << QString() << true;
    QTest::newRow("output ignores the tool list") << ShieldStage::Output << QString() << true;
}

void TestShields::toolFilterAppliesOnlyAtTheToolCallStage()
{
    QFETCH(ShieldStage, stage);
    QFETCH(QString, subject);
    QFETCH(bool, blocked);

    Rule rule = keyword(u"rm -rf"_s);
    rule.tools = {u"run_shell"_s, u"write_file"_s};
    RuleShield shield;
    QCOMPARE(shield.addRule(rule), std::nullopt);
    QCOMPARE(!shield.check(stage, subject, uR"({"command": "rm -rf /"})"_s).allowed, blocked);
}

void TestShields::theReasonNamesTheRuleOrUsesItsMessage_data()
{
    QTest::addColumn<Rule>("rule");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("reason");

    QTest::newRow("keyword without a message")
        << keyword(u"rm -rf"_s) << u"RM -RF /"_s << u"matched keyword \"rm -rf\""_s;
    QTest::newRow("expression without a message")
        << expression(u"sk-[A-Za-z0-9]{8,}"_s) << u"key sk-abcdefgh123"_s
        << u"matched pattern \"sk-[A-Za-z0-9]{8,}\""_s;
    QTest::newRow("keyword with a message") << keyword(u"password"_s, u"Passwords stay out of the chat."_s)
                                            << u"my password"_s << u"Passwords stay out of the chat."_s;
    QTest::newRow("expression with a message")
        << expression(u"\\d{3}-\\d{2}-\\d{4}"_s, u"Looks like a social security number."_s)
        << u"ssn 123-45-6789"_s << u"Looks like a social security number."_s;
}

void TestShields::theReasonNamesTheRuleOrUsesItsMessage()
{
    QFETCH(Rule, rule);
    QFETCH(QString, content);
    QFETCH(QString, reason);

    RuleShield shield;
    QCOMPARE(shield.addRule(rule), std::nullopt);
    QCOMPARE(shield.check(ShieldStage::Input, {}, content), ShieldVerdict::block(reason));
}

void TestShields::firstMatchingRuleWins()
{
    RuleShield shield;
    Rule outputOnly = keyword(u"secret"_s, u"first, but output only"_s);
    outputOnly.stages = {ShieldStage::Output};
    QCOMPARE(shield.addRule(outputOnly), std::nullopt);
    QCOMPARE(shield.addRule(keyword(u"nothing here"_s, u"never matches"_s)), std::nullopt);
    QCOMPARE(shield.addRule(expression(u"sec.et"_s, u"second"_s)), std::nullopt);
    QCOMPARE(shield.addRule(keyword(u"secret"_s, u"third"_s)), std::nullopt);
    QCOMPARE(shield.ruleCount(), 4);

    QCOMPARE(shield.check(ShieldStage::Output, {}, u"a secret"_s),
             ShieldVerdict::block(u"first, but output only"_s));
    QCOMPARE(shield.check(ShieldStage::Input, {}, u"a secret"_s), ShieldVerdict::block(u"second"_s));
}

void TestShields::aShieldWithoutRulesAllowsEverything()
{
    const RuleShield shield;
    QCOMPARE(shield.ruleCount(), 0);
    QCOMPARE(shield.check(ShieldStage::Input, {}, u"rm -rf /"_s), ShieldVerdict::allow());
}

void TestShields::allowedContentPassesEveryStage()
{
    RuleShield shield;
    QCOMPARE(shield.addRule(keyword(u"rm -rf"_s)), std::nullopt);
    QCOMPARE(shield.addRule(expression(u"(?i)api[_-]?key"_s)), std::nullopt);

    const QString content = u"What is the weather in Zürich? Please format the answer as a table."_s;
    QCOMPARE(shield.check(ShieldStage::Input, {}, content), ShieldVerdict::allow());
    QCOMPARE(shield.check(ShieldStage::ToolCall, u"current_time"_s, uR"({"zone": "Europe/Zurich"})"_s),
             ShieldVerdict::allow());
    QCOMPARE(shield.check(ShieldStage::Output, {}, content), ShieldVerdict::allow());
}

QTEST_GUILESS_MAIN(TestShields)
#include "tst_shields.moc"
