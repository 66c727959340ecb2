#include "agent/mcp/mcpcontent.h"
#include "tests/support/testimages.h"

#include <QCryptographicHash>
#include <QImage>
#include <QJsonArray>
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
    void imagesOfACallResultBecomeAttachmentsAndLeaveTheText_data();
    void imagesOfACallResultBecomeAttachmentsAndLeaveTheText();
    void theTraceKeepsTheExchangeWithoutTheImagesBytes();
};

void TestMcpContent::imagesOfACallResultBecomeAttachmentsAndLeaveTheText_data()
{
    const QByteArray png = Testing::pngBytes({12, 8});
    const QString base64 = QString::fromLatin1(png.toBase64());
    const QJsonObject image{{u"type"_s, u"image"_s}, {u"mimeType"_s, u"image/png"_s}, {u"data"_s, base64}};
    const QJsonObject before{{u"type"_s, u"text"_s}, {u"text"_s, u"Here it is:"_s}};
    const QJsonObject after{{u"type"_s, u"text"_s}, {u"text"_s, u"The logo."_s}};

    QTest::addColumn<QJsonObject>("result");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QByteArray>("bytes");

    QTest::newRow("an image between two texts")
        << QJsonObject{{u"content"_s, QJsonArray{before, image, after}}} << u"Here it is:\n\nThe logo."_s
        << QStringList{u"get-tiny-image-1.png"_s} << png;
    QTest::newRow("two images and no text")
        << QJsonObject{{u"content"_s, QJsonArray{image, image}}} << QString()
        << QStringList{u"get-tiny-image-1.png"_s, u"get-tiny-image-2.png"_s} << png;
    // The type comes from the bytes, not from what the server says.
    QJsonObject mislabelled = image;
    mislabelled.insert(u"mimeType"_s, u"image/jpeg"_s);
    QTest::newRow("an image the server calls JPEG")
        << QJsonObject{{u"content"_s, QJsonArray{mislabelled}}} << QString()
        << QStringList{u"get-tiny-image-1.png"_s} << png;
    const QJsonObject resource{{u"type"_s, u"resource"_s},
                               {u"resource"_s, QJsonObject{{u"uri"_s, u"file:///charts/sales.png"_s},
                                                           {u"mimeType"_s, u"image/png"_s},
                                                           {u"blob"_s, base64}}}};
    QTest::newRow("an embedded resource whose blob is an image")
        << QJsonObject{{u"content"_s, QJsonArray{resource}}} << QString() << QStringList{u"sales.png"_s}
        << png;
    // What is no image stays described, with the reason when it claimed to be one.
    const QJsonObject corrupt{{u"type"_s, u"image"_s},
                              {u"mimeType"_s, u"image/png"_s},
                              {u"data"_s, QString::fromLatin1(png.left(40).toBase64())}};
    QTest::newRow("a corrupt image")
        << QJsonObject{{u"content"_s, QJsonArray{corrupt}}}
        << u"[image: image/png, 40 bytes] (Cannot attach 'get-tiny-image-1.png': the "
           u"image/png image is corrupt (…"_s
        << QStringList() << QByteArray();
    const QJsonObject audio{
        {u"type"_s, u"audio"_s}, {u"mimeType"_s, u"audio/wav"_s}, {u"data"_s, u"UklGRg=="_s}};
    QTest::newRow("audio") << QJsonObject{{u"content"_s, QJsonArray{before, audio}}}
                           << u"Here it is:\n\n[audio: audio/wav, 4 bytes]"_s << QStringList()
                           << QByteArray();
}

void TestMcpContent::imagesOfACallResultBecomeAttachmentsAndLeaveTheText()
{
    QFETCH(QJsonObject, result);
    QFETCH(QString, text);
    QFETCH(QStringList, names);
    QFETCH(QByteArray, bytes);
    // What holds no image is worded as it always was (and needs no thread to decode it).
    if (!McpContent::mayHoldImages(result))
        QCOMPARE(McpContent::callResultText(result), text);
    const McpContent::CallResult call = McpContent::callResult(result, u"get-tiny-image"_s);
    // Qt's words for a corrupt image vary: "…" ends the part compared.
    if (text.endsWith(u'…'))
        QVERIFY2(call.text.startsWith(text.chopped(1)), qPrintable(call.text));
    else
        QCOMPARE(call.text, text);
    QStringList seen;
    for (const Attachment &attachment : call.images) {
        seen.append(attachment.name);
        QVERIFY(attachment.isImage());
        QCOMPARE(attachment.mimeType, u"image/png"_s);
        QCOMPARE(attachment.bytes, bytes);
        QCOMPARE(attachment.pixelSize, QSize(12, 8));
        QCOMPARE(attachment.sha256, QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    }
    QCOMPARE(seen, names);
}

void TestMcpContent::theTraceKeepsTheExchangeWithoutTheImagesBytes()
{
    const QByteArray png = Testing::pngBytes({12, 8});
    const QString base64 = QString::fromLatin1(png.toBase64());
    const QJsonObject result{
        {u"content"_s,
         QJsonArray{
             QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"Here it is:"_s}},
             QJsonObject{{u"type"_s, u"image"_s}, {u"mimeType"_s, u"image/png"_s}, {u"data"_s, base64}},
             QJsonObject{
                 {u"type"_s, u"audio"_s}, {u"mimeType"_s, u"audio/wav"_s}, {u"data"_s, u"UklGRg=="_s}}}}};
    const QJsonObject response{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 3}, {u"result"_s, result}};
    const McpContent::CallResult call = McpContent::callResult(result, u"tool"_s);
    QCOMPARE(call.images.size(), 1);

    const QJsonObject kept = McpContent::withoutImageData(response, call.images).toObject();
    const QByteArray text = QJsonDocument(kept).toJson();
    QVERIFY(!text.contains(base64.toLatin1()));
    QVERIFY(text.contains(call.images.first().sha256));
    // Everything else stays as the server sent it, the audio's data too.
    const QJsonArray content = kept[u"result"_s][u"content"_s].toArray();
    QCOMPARE(content.at(0), result[u"content"_s][0]);
    QCOMPARE(content.at(2), result[u"content"_s][2]);
    QCOMPARE(content.at(1)[u"mimeType"_s], u"image/png"_s);
    // Without images nothing changes.
    QCOMPARE(McpContent::withoutImageData(response, {}), QJsonValue(response));
}

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
