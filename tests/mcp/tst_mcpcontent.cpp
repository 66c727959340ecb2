#include "agent/mcp/mcpcontent.h"

#include <QJsonDocument>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {
QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(text).object();
}
} // namespace

class TestMcpContent final : public QObject
{
    Q_OBJECT

private slots:
    void callResultsBecomeTextForTheModel_data();
    void callResultsBecomeTextForTheModel();
    void promptMessagesAreJoined();
    void resourceContentsAreJoinedAndBlobsDescribed();
};

void TestMcpContent::callResultsBecomeTextForTheModel_data()
{
    QTest::addColumn<QJsonObject>("result");
    QTest::addColumn<QString>("text");

    QTest::newRow("one text item") << json(R"({"content":[{"type":"text","text":"hello"}]})") << u"hello"_s;
    QTest::newRow("text items joined with a blank line")
        << json(R"({"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]})") << u"a\n\nb"_s;
    QTest::newRow("structured content when there is no text")
        << json(R"({"content":[],"structuredContent":{"temperature":22.5}})") << u"{\"temperature\":22.5}"_s;
    QTest::newRow("text wins over structured content")
        << json(R"({"content":[{"type":"text","text":"22.5 C"}],"structuredContent":{"t":22.5}})")
        << u"22.5 C"_s;
    QTest::newRow("image described with its size")
        << json(R"({"content":[{"type":"image","mimeType":"image/png","data":"AAAA"}]})")
        << u"[image: image/png, 3 bytes]"_s;
    QTest::newRow("audio described with its size")
        << json(R"({"content":[{"type":"audio","mimeType":"audio/wav","data":"AAA="}]})")
        << u"[audio: audio/wav, 2 bytes]"_s;
    QTest::newRow("resource link") << json(
        R"({"content":[{"type":"resource_link","name":"notes","uri":"file:///n.txt"}]})")
                                   << u"[resource link: notes <file:///n.txt>]"_s;
    QTest::newRow("embedded text resource")
        << json(R"({"content":[{"type":"resource","resource":{"uri":"x:/a","text":"inside"}}]})")
        << u"inside"_s;
    QTest::newRow("embedded blob resource") << json(
        R"({"content":[{"type":"resource","resource":{"uri":"x:/b","mimeType":"application/zip","blob":"AA=="}}]})")
                                            << u"[resource: x:/b, application/zip]"_s;
    QTest::newRow("text then a described image") << json(
        R"({"content":[{"type":"image","mimeType":"image/png","data":"AAAA"},{"type":"text","text":"see"}]})")
                                                 << u"see\n\n[image: image/png, 3 bytes]"_s;
    QTest::newRow("nothing") << json(R"({"content":[]})") << QString();
}

void TestMcpContent::callResultsBecomeTextForTheModel()
{
    QFETCH(QJsonObject, result);
    QFETCH(QString, text);
    QCOMPARE(McpContent::callResultText(result), text);
}

void TestMcpContent::promptMessagesAreJoined()
{
    const QJsonObject result = json(R"({"messages":[
        {"role":"user","content":{"type":"text","text":"What is the weather in Paris?"}},
        {"role":"assistant","content":{"type":"text","text":"Sunny."}}]})");
    QCOMPARE(McpContent::promptResultText(result), u"What is the weather in Paris?\n\nSunny."_s);
}

void TestMcpContent::resourceContentsAreJoinedAndBlobsDescribed()
{
    const QJsonObject result = json(R"({"contents":[
        {"uri":"test://1","mimeType":"text/plain","text":"one"},
        {"uri":"test://2","mimeType":"application/octet-stream","blob":"AAAA"}]})");
    QCOMPARE(McpContent::resourceResultText(result),
             u"one\n\n[blob: test://2, application/octet-stream, 3 bytes]"_s);
}

QTEST_GUILESS_MAIN(TestMcpContent)
#include "tst_mcpcontent.moc"
