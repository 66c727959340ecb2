#include "ui/chat/schemaform.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

// A tool's input schema beyond what an elicitation asks: an object and a free array, typed as JSON.
const char *ToolSchema = R"({"type": "object", "properties": {
    "options": {"type": "object", "description": "Settings"},
    "ids": {"type": "array", "items": {"type": "integer"}},
    "name": {"type": "string"}},
  "required": ["options"]})";

QJsonObject schema()
{
    return QJsonDocument::fromJson(ToolSchema).object();
}

} // namespace

class SchemaFormTest : public QObject
{
    Q_OBJECT

private slots:
    void objectsAndFreeArraysAreTypedAsJson_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QString>("ids");
        QTest::addColumn<QString>("problem");
        QTest::addColumn<QJsonObject>("content");
        QTest::newRow("both valid") << uR"({"deep": true})"_s << u"[1, 2]"_s << QString()
                                    << QJsonObject{{u"options"_s, QJsonObject{{u"deep"_s, true}}},
                                                   {u"ids"_s, QJsonArray{1, 2}}};
        QTest::newRow("the optional array left empty")
            << u"{}"_s << QString() << QString() << QJsonObject{{u"options"_s, QJsonObject{}}};
        QTest::newRow("the required object missing")
            << QString() << u"[1]"_s << u"Fill in options."_s << QJsonObject();
        QTest::newRow("not JSON") << u"{deep: true"_s << QString() << u"options must be a JSON object."_s
                                  << QJsonObject();
        QTest::newRow("an array where an object belongs")
            << u"[1]"_s << QString() << u"options must be a JSON object."_s << QJsonObject();
        QTest::newRow("an object where an array belongs")
            << u"{}"_s << uR"({"a": 1})"_s << u"ids must be a JSON array."_s << QJsonObject();
    }

    void objectsAndFreeArraysAreTypedAsJson()
    {
        QFETCH(QString, options);
        QFETCH(QString, ids);
        QFETCH(QString, problem);
        QFETCH(QJsonObject, content);
        Ui::SchemaForm form(schema());
        auto *optionsEdit = qobject_cast<QLineEdit *>(form.field(u"options"_s));
        auto *idsEdit = qobject_cast<QLineEdit *>(form.field(u"ids"_s));
        QVERIFY(optionsEdit && idsEdit);
        QTest::keyClicks(optionsEdit, options);
        QTest::keyClicks(idsEdit, ids);
        QCOMPARE(form.problem(), problem);
        if (problem.isEmpty())
            QCOMPARE(form.content(), content);
    }

    void requiredFieldsComeFirst()
    {
        Ui::SchemaForm form(schema());
        QWidget *options = form.field(u"options"_s);
        QWidget *name = form.field(u"name"_s);
        QVERIFY(options && name);
        QVERIFY(options->accessibleName().contains(u"required"_s));
        QVERIFY(!name->accessibleName().contains(u"required"_s));
        form.show();
        QVERIFY(options->geometry().top() < name->geometry().top());
    }

    void anEmptySchemaMakesAnEmptyValidForm()
    {
        Ui::SchemaForm form(QJsonObject{});
        QVERIFY(form.isEmpty());
        QCOMPARE(form.problem(), QString());
        QCOMPARE(form.content(), QJsonObject());
    }
};

QTEST_MAIN(SchemaFormTest)
#include "tst_schemaform.moc"
