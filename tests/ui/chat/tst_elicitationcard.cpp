#include "ui/chat/chatview.h"
#include "ui/chat/elicitationcard.h"

#include "agent/session/conversationrows.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDesktopServices>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

McpElicitation request(const QByteArray &schema)
{
    return {u"contacts"_s, u"Who should get the invitation?"_s, QJsonDocument::fromJson(schema).object()};
}

const QByteArray ContactSchema = R"({"type": "object", "properties": {
    "name": {"type": "string", "title": "Name"},
    "email": {"type": "string", "format": "email", "title": "Email"},
    "guests": {"type": "integer", "minimum": 0, "maximum": 5, "default": 1},
    "budget": {"type": "number", "minimum": 0.5},
    "vegetarian": {"type": "boolean", "default": true},
    "size": {"type": "string", "enum": ["s", "m", "l"], "enumNames": ["Small", "Medium", "Large"]},
    "colour": {"type": "string", "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]}},
    "required": ["name", "email", "size"]})";

// Where QDesktopServices sends an https address in the test, instead of a browser.
class UrlCatcher final : public QObject
{
    Q_OBJECT

public:
    QList<QUrl> opened;

public slots:
    void take(const QUrl &url) { opened.append(url); }
};

} // namespace

class ElicitationCardTest : public QObject
{
    Q_OBJECT

private slots:
    void eachSchemaTypeGetsItsField_data()
    {
        QTest::addColumn<QString>("property");
        QTest::addColumn<QString>("className");
        QTest::newRow("string") << u"name"_s << u"QLineEdit"_s;
        QTest::newRow("string with format") << u"email"_s << u"QLineEdit"_s;
        QTest::newRow("integer") << u"guests"_s << u"QSpinBox"_s;
        QTest::newRow("number") << u"budget"_s << u"QDoubleSpinBox"_s;
        QTest::newRow("boolean") << u"vegetarian"_s << u"QCheckBox"_s;
        QTest::newRow("enum") << u"size"_s << u"QComboBox"_s;
        QTest::newRow("oneOf") << u"colour"_s << u"QComboBox"_s;
    }

    void eachSchemaTypeGetsItsField()
    {
        QFETCH(QString, property);
        QFETCH(QString, className);
        Ui::ElicitationCard card(request(ContactSchema));
        QWidget *field = card.field(property);
        QVERIFY(field);
        QCOMPARE(QString::fromLatin1(field->metaObject()->className()), className);
    }

    void limitsDefaultsAndRequiredMarksComeFromTheSchema()
    {
        Ui::ElicitationCard card(request(ContactSchema));
        auto *guests = qobject_cast<QSpinBox *>(card.field(u"guests"_s));
        QCOMPARE(guests->minimum(), 0);
        QCOMPARE(guests->maximum(), 5);
        QCOMPARE(guests->value(), 1);
        QCOMPARE(qobject_cast<QDoubleSpinBox *>(card.field(u"budget"_s))->minimum(), 0.5);
        QVERIFY(qobject_cast<QCheckBox *>(card.field(u"vegetarian"_s))->isChecked());
        auto *size = qobject_cast<QComboBox *>(card.field(u"size"_s));
        QCOMPARE(size->itemText(0), u"Small"_s); // required: no "(none)"
        auto *colour = qobject_cast<QComboBox *>(card.field(u"colour"_s));
        QCOMPARE(colour->itemData(0).toString(), QString()); // optional: may stay unset
        QCOMPARE(colour->itemText(2), u"Green"_s);
        QVERIFY(card.field(u"name"_s)->accessibleName().contains(u"required"_s));
        QVERIFY(!card.field(u"budget"_s)->accessibleName().contains(u"required"_s));
    }

    void acceptWaitsForTheRequiredFieldsAndValidValues()
    {
        Ui::ElicitationCard card(request(ContactSchema));
        QVERIFY(!card.acceptButton()->isEnabled());
        QCOMPARE(card.problem(), u"Fill in Name."_s);
        QTest::keyClicks(qobject_cast<QLineEdit *>(card.field(u"name"_s)), u"Ada"_s);
        QVERIFY(!card.acceptButton()->isEnabled());
        QCOMPARE(card.problem(), u"Fill in Email."_s);
        auto *email = qobject_cast<QLineEdit *>(card.field(u"email"_s));
        QTest::keyClicks(email, u"not an address"_s);
        QVERIFY(!card.acceptButton()->isEnabled());
        QVERIFY(card.problem().contains(u"email address"_s));
        email->setText(u"ada@example.com"_s);
        QVERIFY2(card.acceptButton()->isEnabled(), qPrintable(card.problem()));
        QVERIFY(card.declineButton()->isEnabled());
        QVERIFY(card.cancelButton()->isEnabled());
    }

    void acceptSendsTheValuesAsTheSchemaTypesThem()
    {
        Ui::ElicitationCard card(request(ContactSchema));
        QSignalSpy answered(&card, &Ui::ElicitationCard::answered);
        qobject_cast<QLineEdit *>(card.field(u"name"_s))->setText(u"Ada"_s);
        qobject_cast<QLineEdit *>(card.field(u"email"_s))->setText(u"ada@example.com"_s);
        qobject_cast<QComboBox *>(card.field(u"size"_s))->setCurrentIndex(2);
        qobject_cast<QSpinBox *>(card.field(u"guests"_s))->setValue(3);
        card.acceptButton()->click();

        QCOMPARE(answered.size(), 1);
        const auto answer = answered.first().first().value<McpElicitationAnswer>();
        QCOMPARE(answer.action, McpElicitationAnswer::Action::Accept);
        // Unset optional fields (budget, colour) are left out.
        const QJsonObject expected{{u"name"_s, u"Ada"_s},
                                   {u"email"_s, u"ada@example.com"_s},
                                   {u"size"_s, u"l"_s},
                                   {u"guests"_s, 3},
                                   {u"vegetarian"_s, true}};
        QCOMPARE(answer.content, expected);
        QVERIFY(card.isFinished());
        QVERIFY(!card.field(u"name"_s)->isEnabled());
        QVERIFY(card.acceptButton()->isHidden());
    }

    void declineAndCancelSendNoContent_data()
    {
        QTest::addColumn<bool>("decline");
        QTest::newRow("decline") << true;
        QTest::newRow("cancel") << false;
    }

    void declineAndCancelSendNoContent()
    {
        QFETCH(bool, decline);
        Ui::ElicitationCard card(request(ContactSchema));
        QSignalSpy answered(&card, &Ui::ElicitationCard::answered);
        (decline ? card.declineButton() : card.cancelButton())->click();
        QCOMPARE(answered.size(), 1);
        const auto answer = answered.first().first().value<McpElicitationAnswer>();
        QCOMPARE(answer.action,
                 decline ? McpElicitationAnswer::Action::Decline : McpElicitationAnswer::Action::Cancel);
        QVERIFY(answer.content.isEmpty());
    }

    void aMultiSelectIsACheckBoxPerChoiceAndSendsAnArray()
    {
        Ui::ElicitationCard card(request(R"({"type": "object", "properties": {
            "days": {"type": "array", "title": "Days", "minItems": 1, "maxItems": 2,
                     "items": {"anyOf": [{"const": "mon", "title": "Monday"}, {"const": "tue", "title": "Tuesday"},
                                         {"const": "wed", "title": "Wednesday"}]}}}})"));
        QSignalSpy answered(&card, &Ui::ElicitationCard::answered);
        const QList<QCheckBox *> checks = card.field(u"days"_s)->findChildren<QCheckBox *>();
        QCOMPARE(checks.size(), 3);
        QCOMPARE(checks.at(1)->text(), u"Tuesday"_s);
        QVERIFY(!card.acceptButton()->isEnabled()); // minItems
        checks.at(0)->setChecked(true);
        QVERIFY(card.acceptButton()->isEnabled());
        checks.at(1)->setChecked(true);
        checks.at(2)->setChecked(true);
        QVERIFY(!card.acceptButton()->isEnabled()); // maxItems
        checks.at(1)->setChecked(false);
        card.acceptButton()->click();
        QCOMPARE(answered.first().first().value<McpElicitationAnswer>().content,
                 (QJsonObject{{u"days"_s, QJsonArray{u"mon"_s, u"wed"_s}}}));
    }

    void theChatShowsTheCardAndPassesTheAnswerOn()
    {
        Ui::ChatView view;
        view.resize(600, 400);
        view.show();
        QSignalSpy answered(&view, &Ui::ChatView::elicitationAnswered);
        view.showElicitation(7, request(R"({"type": "object", "properties": {"ok": {"type": "boolean"}}})"));
        Ui::ElicitationCard *card = view.elicitationCard(7);
        QVERIFY(card);
        QVERIFY(card->isVisible());
        QVERIFY(!view.isEmptyHintVisible());
        card->acceptButton()->click();
        QCOMPARE(answered.size(), 1);
        QCOMPARE(answered.first().at(0).toInt(), 7);
        QCOMPARE(answered.first().at(1).value<McpElicitationAnswer>().content,
                 (QJsonObject{{u"ok"_s, false}}));
    }

    void aPageToOpenIsShownWholeAndOpenedOnlyOnOpen_data()
    {
        QTest::addColumn<bool>("open");
        QTest::newRow("opened") << true;
        QTest::newRow("declined: nothing opens") << false;
    }

    void aPageToOpenIsShownWholeAndOpenedOnlyOnOpen()
    {
        QFETCH(bool, open);
        UrlCatcher catcher;
        QDesktopServices::setUrlHandler(u"https"_s, &catcher, "take");
        const auto unset = qScopeGuard([] { QDesktopServices::unsetUrlHandler(u"https"_s); });
        McpElicitation page{
            u"signer"_s, u"Sign the form on our site."_s, {}, QUrl(u"https://example.com/sign?id=7"_s)};
        Ui::ElicitationCard card(page);
        QSignalSpy answered(&card, &Ui::ElicitationCard::answered);
        const auto *link = card.findChild<QLabel *>(u"elicitationUrl"_s);
        QVERIFY(link);
        QVERIFY2(link->text().contains(u"https://example.com/sign?id=7"_s), qPrintable(link->text()));
        QCOMPARE(card.acceptButton()->text(), u"Open"_s);
        QVERIFY(card.acceptButton()->isEnabled());
        QVERIFY(catcher.opened.isEmpty()); // not before the user says so
        (open ? card.acceptButton() : card.declineButton())->click();
        QCOMPARE(answered.size(), 1);
        const auto answer = answered.first().first().value<McpElicitationAnswer>();
        QCOMPARE(answer.action,
                 open ? McpElicitationAnswer::Action::Accept : McpElicitationAnswer::Action::Decline);
        QVERIFY(answer.content.isEmpty());
        QCOMPARE(catcher.opened, open ? QList<QUrl>{page.url} : QList<QUrl>{});
    }

    void aSettledQuestionIsDisabled()
    {
        ConversationRows rows;
        Ui::ChatView view;
        view.setModel(&rows);
        view.showElicitation(3, request(ContactSchema));
        QPointer<Ui::ElicitationCard> card = view.elicitationCard(3);
        view.settleElicitation(3);
        QVERIFY(card->isFinished());
        QVERIFY(!card->field(u"name"_s)->isEnabled());
        rows.clear(); // a new conversation takes the card away
        QTRY_VERIFY(!card);
    }
};

QTEST_MAIN(ElicitationCardTest)
#include "tst_elicitationcard.moc"
