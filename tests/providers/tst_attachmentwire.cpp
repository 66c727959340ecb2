#include "agent/conversation/attachmentloader.h"
#include "agent/providers/anthropicprotocol.h"
#include "agent/providers/attachmentparts.h"
#include "agent/providers/geminiprotocol.h"
#include "agent/providers/httpmodelclient.h"
#include "agent/providers/ollamaprotocol.h"
#include "agent/providers/openaiprotocol.h"
#include "agent/providers/providerfactory.h"
#include "agent/providers/recordedbody.h"
#include "tests/support/fakehttpserver.h"

#include <QBuffer>
#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

QByteArray encodedImage(const char *format, QSize size)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::darkCyan);
    // A few lines of another colour, so a scaled image is not one flat colour.
    for (int x = 0; x < size.width(); x += 7)
        image.setPixel(x, size.height() / 2, qRgb(200, 30, 30));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, format);
    if (!writer.write(image))
        qFatal("cannot write a %s test image", format);
    return bytes;
}

// A 1x1 GIF: Qt reads GIF but cannot write it.
QByteArray gifImage()
{
    return QByteArray::fromBase64("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==");
}

// A 1x1 lossless WebP: Qt decodes it only with the image-formats plugin, which this build lacks.
QByteArray webpImage()
{
    return QByteArray::fromBase64("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==");
}

Attachment attachment(const QString &name, const QByteArray &bytes)
{
    const AttachmentLoad load = AttachmentLoader::fromBytes(name, bytes);
    if (!load.ok())
        qFatal("cannot load %s: %s", qPrintable(name), qPrintable(load.error));
    return *load.attachment;
}

ModelRequest requestWith(const QList<Attachment> &attachments, const QString &question = u"What is this?"_s)
{
    ModelRequest request;
    request.messages = {Message::system(u"Be brief."_s), Message::user(question, attachments)};
    request.options.model = u"model-test"_s;
    request.options.stream = false;
    return request;
}

// An image part as it was sent: its type and its bytes, decoded from the protocol's own form.
struct SentImage
{
    QString mimeType;
    QByteArray bytes;
};

// The user message's parts as each protocol puts them: images, and the texts in order.
struct SentParts
{
    QList<SentImage> images;
    QStringList texts;
};

SentParts sentParts(ProviderKind kind, const QJsonObject &body)
{
    SentParts parts;
    switch (kind) {
    case ProviderKind::OpenAi: {
        const QJsonArray messages = body.value(u"messages"_s).toArray();
        for (const QJsonValue &value : messages.last().toObject().value(u"content"_s).toArray()) {
            const QJsonObject part = value.toObject();
            if (part.value(u"type"_s) == u"image_url"_s) {
                const QString url = part.value(u"image_url"_s).toObject().value(u"url"_s).toString();
                const qsizetype comma = url.indexOf(u',');
                const QString head = url.left(comma); // data:image/png;base64
                parts.images.append({head.mid(5, head.indexOf(u';') - 5),
                                     QByteArray::fromBase64(url.mid(comma + 1).toLatin1())});
            } else {
                parts.texts.append(part.value(u"text"_s).toString());
            }
        }
        break;
    }
    case ProviderKind::Anthropic: {
        const QJsonArray messages = body.value(u"messages"_s).toArray();
        for (const QJsonValue &value : messages.last().toObject().value(u"content"_s).toArray()) {
            const QJsonObject block = value.toObject();
            if (block.value(u"type"_s) == u"image"_s) {
                const QJsonObject source = block.value(u"source"_s).toObject();
                if (source.value(u"type"_s) != u"base64"_s)
                    qFatal("not a base64 source");
                parts.images.append({source.value(u"media_type"_s).toString(),
                                     QByteArray::fromBase64(source.value(u"data"_s).toString().toLatin1())});
            } else {
                parts.texts.append(block.value(u"text"_s).toString());
            }
        }
        break;
    }
    case ProviderKind::Gemini: {
        const QJsonArray contents = body.value(u"contents"_s).toArray();
        for (const QJsonValue &value : contents.last().toObject().value(u"parts"_s).toArray()) {
            const QJsonObject part = value.toObject();
            if (part.contains(u"inlineData"_s)) {
                const QJsonObject data = part.value(u"inlineData"_s).toObject();
                parts.images.append({data.value(u"mimeType"_s).toString(),
                                     QByteArray::fromBase64(data.value(u"data"_s).toString().toLatin1())});
            } else {
                parts.texts.append(part.value(u"text"_s).toString());
            }
        }
        break;
    }
    case ProviderKind::Ollama: {
        const QJsonObject message = body.value(u"messages"_s).toArray().last().toObject();
        for (const QJsonValue &value : message.value(u"images"_s).toArray()) {
            const QByteArray bytes = QByteArray::fromBase64(value.toString().toLatin1());
            // Ollama's images carry no type: it is read from the bytes, as the server does.
            parts.images.append({AttachmentLoader::imageMimeType(bytes), bytes});
        }
        parts.texts.append(message.value(u"content"_s).toString());
        break;
    }
    }
    return parts;
}

// A turn in which the model called two tools and the first answered with an image (an MCP image).
ModelRequest toolResultRequest(const Attachment &image)
{
    const ToolCall screenshot{u"call_1"_s, u"screenshot"_s, u"{}"_s, {}};
    const ToolCall clock{u"call_2"_s, u"clock"_s, u"{}"_s, {}};
    ModelRequest request = requestWith({}, u"What is on the screen?"_s);
    request.messages.append(Message::assistant({}, {screenshot, clock}));
    Message withImage = Message::toolResult(screenshot, u"The screen:"_s, false);
    withImage.attachments = {image};
    request.messages.append(withImage);
    request.messages.append(Message::toolResult(clock, u"12:00"_s, false));
    return request;
}

// Where each protocol put the tool's image: its bytes as sent, and the words beside them.
struct SentToolImage
{
    SentImage image;
    QString resultText; // the first result's text as the protocol carries it
    QString besideText; // OpenAI and Ollama: the text of the user message that carries the image
};

SentToolImage sentToolImage(ProviderKind kind, const QJsonObject &body)
{
    SentToolImage sent;
    switch (kind) {
    case ProviderKind::Anthropic: {
        // Both results in the one user message after the calls; the image inside the first.
        const QJsonArray content
            = body.value(u"messages"_s).toArray().last().toObject().value(u"content"_s).toArray();
        if (content.size() != 2)
            qFatal("expected two tool results");
        const QJsonObject first = content.at(0).toObject();
        if (first.value(u"tool_use_id"_s) != u"call_1"_s
            || content.at(1).toObject().value(u"content"_s) != u"12:00"_s)
            qFatal("the results are not the calls'");
        for (const QJsonValue &value : first.value(u"content"_s).toArray()) {
            const QJsonObject block = value.toObject();
            if (block.value(u"type"_s) == u"text"_s) {
                sent.resultText = block.value(u"text"_s).toString();
            } else if (block.value(u"type"_s) == u"image"_s) {
                const QJsonObject source = block.value(u"source"_s).toObject();
                sent.image = {source.value(u"media_type"_s).toString(),
                              QByteArray::fromBase64(source.value(u"data"_s).toString().toLatin1())};
            }
        }
        break;
    }
    case ProviderKind::Gemini: {
        const QJsonArray parts
            = body.value(u"contents"_s).toArray().last().toObject().value(u"parts"_s).toArray();
        if (parts.size() != 2)
            qFatal("expected two function responses");
        const QJsonObject response = parts.at(0).toObject().value(u"functionResponse"_s).toObject();
        sent.resultText = response.value(u"response"_s).toObject().value(u"output"_s).toString();
        const QJsonObject data
            = response.value(u"parts"_s).toArray().at(0).toObject().value(u"inlineData"_s).toObject();
        sent.image = {data.value(u"mimeType"_s).toString(),
                      QByteArray::fromBase64(data.value(u"data"_s).toString().toLatin1())};
        break;
    }
    case ProviderKind::OpenAi:
    case ProviderKind::Ollama: {
        // system, user, assistant, tool, tool, then the user message with the image.
        const QJsonArray messages = body.value(u"messages"_s).toArray();
        if (messages.size() != 6 || messages.at(3).toObject().value(u"role"_s) != u"tool"_s
            || messages.at(4).toObject().value(u"role"_s) != u"tool"_s)
            qFatal("the results are not together after the calls");
        sent.resultText = messages.at(3).toObject().value(u"content"_s).toString();
        const QJsonObject user = messages.at(5).toObject();
        if (user.value(u"role"_s) != u"user"_s)
            qFatal("no user message after the results");
        if (kind == ProviderKind::Ollama) {
            const QByteArray bytes
                = QByteArray::fromBase64(user.value(u"images"_s).toArray().at(0).toString().toLatin1());
            sent.image = {AttachmentLoader::imageMimeType(bytes), bytes};
            sent.besideText = user.value(u"content"_s).toString();
            break;
        }
        for (const QJsonValue &value : user.value(u"content"_s).toArray()) {
            const QJsonObject part = value.toObject();
            if (part.value(u"type"_s) == u"text"_s) {
                sent.besideText = part.value(u"text"_s).toString();
                continue;
            }
            const QString url = part.value(u"image_url"_s).toObject().value(u"url"_s).toString();
            const qsizetype comma = url.indexOf(u',');
            sent.image
                = {url.mid(5, url.indexOf(u';') - 5), QByteArray::fromBase64(url.mid(comma + 1).toLatin1())};
        }
        break;
    }
    }
    return sent;
}

struct Fixture
{
    explicit Fixture(ProviderKind kind)
    {
        if (!server.listen())
            qFatal("the fake server cannot listen");
        // OpenAI's base URL carries the version; the others' do not.
        const QString suffix = kind == ProviderKind::OpenAi ? u"/v1"_s : QString();
        client = std::make_unique<HttpModelClient>(
            &network, createProviderProtocol(kind),
            ProviderEndpoint{QUrl(server.baseUrl().toString() + suffix), u"key-0123456789"_s});
        // Every request is refused: what matters is what arrived, and a 400 is not retried.
        server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(400, {{u"error"_s, QJsonObject{{u"message"_s, u"seen"_s}}}});
        });
    }

    // Sends \a request and waits for its end; the request the server got, if any.
    bool run(const ModelRequest &request)
    {
        QSignalSpy failed(client.get(), &ModelClient::failed);
        client->send(request);
        return failed.wait(10'000);
    }

    FakeHttpServer server;
    QNetworkAccessManager network;
    std::unique_ptr<HttpModelClient> client;
};

} // namespace

Q_DECLARE_METATYPE(Loopscope::ProviderKind)

class TestAttachmentWire final : public QObject
{
    Q_OBJECT

private:
    static void addProtocols()
    {
        QTest::addColumn<ProviderKind>("kind");
        QTest::newRow("OpenAI Chat Completions") << ProviderKind::OpenAi;
        QTest::newRow("Anthropic Messages") << ProviderKind::Anthropic;
        QTest::newRow("Gemini") << ProviderKind::Gemini;
        QTest::newRow("Ollama /api/chat") << ProviderKind::Ollama;
    }

private slots:
    void initTestCase()
    {
        qRegisterMetaType<ModelResponse>();
        qRegisterMetaType<ModelError>();
        qRegisterMetaType<ModelAttempt>();
    }

    void anImageWithinTheLimitsArrivesByteForByteAndDecodes_data() { addProtocols(); }

    void anImageWithinTheLimitsArrivesByteForByteAndDecodes()
    {
        QFETCH(ProviderKind, kind);
        Fixture f(kind);
        const QByteArray png = encodedImage("png", QSize(1000, 600));
        const QByteArray jpeg = encodedImage("jpeg", QSize(640, 480));
        QVERIFY(f.run(requestWith({attachment(u"chart.png"_s, png), attachment(u"photo.jpg"_s, jpeg)})));

        QCOMPARE(f.server.requests().size(), 1);
        const SentParts parts = sentParts(kind, f.server.requests().constFirst().json());
        QCOMPARE(parts.images.size(), 2);
        QCOMPARE(parts.images.at(0).mimeType, u"image/png"_s);
        QCOMPARE(parts.images.at(0).bytes, png);
        QCOMPARE(QImage::fromData(parts.images.at(0).bytes).size(), QSize(1000, 600));
        QCOMPARE(parts.images.at(1).mimeType, u"image/jpeg"_s);
        QCOMPARE(parts.images.at(1).bytes, jpeg);
        QVERIFY(!QImage::fromData(parts.images.at(1).bytes).isNull());
        // The question still goes, after the images.
        QVERIFY(parts.texts.last().endsWith(u"What is this?"_s));
    }

    void aTextFileArrivesWithItsNameAndContents_data() { addProtocols(); }

    void aTextFileArrivesWithItsNameAndContents()
    {
        QFETCH(ProviderKind, kind);
        Fixture f(kind);
        const QByteArray csv = "city,temp\nZürich,4\n";
        QVERIFY(f.run(requestWith({attachment(u"weather.csv"_s, csv)}, u"Which city is coldest?"_s)));

        QCOMPARE(f.server.requests().size(), 1);
        const SentParts parts = sentParts(kind, f.server.requests().constFirst().json());
        QVERIFY(parts.images.isEmpty());
        const QString sent = parts.texts.join(u'\n');
        QVERIFY2(sent.contains(u"weather.csv"_s), qPrintable(sent));
        QVERIFY2(sent.contains(QString::fromUtf8(csv)), qPrintable(sent));
        QVERIFY(sent.indexOf(u"weather.csv"_s) < sent.indexOf(u"Which city is coldest?"_s));
    }

    void anImageOverTheLimitsIsScaledDownAndTheAttemptSaysFromWhatToWhat_data()
    {
        QTest::addColumn<ProviderKind>("kind");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("sentType");
        QTest::addColumn<QSize>("sentSize");
        // Anthropic takes at most 8000 px a side: the long side comes down to it, the aspect ratio stays.
        QTest::newRow("Anthropic, a PNG too wide")
            << ProviderKind::Anthropic << encodedImage("png", QSize(8400, 420)) << u"image/png"_s
            << QSize(8000, 400);
        QTest::newRow("Anthropic, a JPEG too tall, still a JPEG")
            << ProviderKind::Anthropic << encodedImage("jpeg", QSize(300, 9000)) << u"image/jpeg"_s
            << QSize(266, 8000);
        // Gemini and Ollama read no GIF: it goes as a PNG of the same size.
        QTest::newRow("Gemini, a GIF") << ProviderKind::Gemini << gifImage() << u"image/png"_s << QSize(1, 1);
        QTest::newRow("Ollama, a GIF") << ProviderKind::Ollama << gifImage() << u"image/png"_s << QSize(1, 1);
    }

    void anImageOverTheLimitsIsScaledDownAndTheAttemptSaysFromWhatToWhat()
    {
        QFETCH(ProviderKind, kind);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, sentType);
        QFETCH(QSize, sentSize);
        Fixture f(kind);
        QSignalSpy attempts(f.client.get(), &ModelClient::attemptFinished);
        const Attachment original = attachment(u"big.img"_s, bytes);
        ModelRequest request = requestWith({original});
        QVERIFY(f.run(request));

        QCOMPARE(f.server.requests().size(), 1);
        const SentParts parts = sentParts(kind, f.server.requests().constFirst().json());
        QCOMPARE(parts.images.size(), 1);
        QCOMPARE(parts.images.at(0).mimeType, sentType);
        const QImage sent = QImage::fromData(parts.images.at(0).bytes);
        QCOMPARE(sent.size(), sentSize);
        QCOMPARE(AttachmentLoader::imageMimeType(parts.images.at(0).bytes), sentType);

        QCOMPARE(attempts.size(), 1);
        const QJsonArray scaled
            = attempts.at(0).at(0).value<ModelAttempt>().request.value(u"scaledImages"_s).toArray();
        QCOMPARE(scaled.size(), 1);
        const QJsonObject record = scaled.at(0).toObject();
        QCOMPARE(record.value(u"sha256"_s).toString(), QString::fromLatin1(original.sha256));
        QCOMPARE(record.value(u"from"_s).toObject().value(u"width"_s).toInt(), original.pixelSize.width());
        QCOMPARE(record.value(u"from"_s).toObject().value(u"mimeType"_s).toString(), original.mimeType);
        QCOMPARE(record.value(u"to"_s).toObject().value(u"width"_s).toInt(), sentSize.width());
        QCOMPARE(record.value(u"to"_s).toObject().value(u"bytes"_s).toInteger(),
                 parts.images.at(0).bytes.size());
        QCOMPARE(record.value(u"to"_s).toObject().value(u"mimeType"_s).toString(), sentType);

        // The message keeps the original, and the body rebuilt for the trace is the one sent.
        QCOMPARE(request.messages.last().attachments.constFirst().bytes, bytes);
        const QJsonValue rebuilt = RecordedBody::rebuild(providerKindName(kind), request);
        QCOMPARE(sentParts(kind, rebuilt.toObject()).images.at(0).bytes, parts.images.at(0).bytes);
    }

    void anImageTooLargeInBytesIsScaledUnderTheByteLimit()
    {
        // Noise does not compress: a PNG of it is large for its size in pixels.
        QImage noise(1400, 1000, QImage::Format_RGB32);
        quint32 state = 12345;
        for (int y = 0; y < noise.height(); ++y) {
            auto *line = reinterpret_cast<QRgb *>(noise.scanLine(y));
            for (int x = 0; x < noise.width(); ++x) {
                state = state * 1664525u + 1013904223u;
                line[x] = 0xff000000u | (state >> 8);
            }
        }
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(noise.save(&buffer, "png"));
        const ImageLimits limits{png.size() / 3, 0, {u"image/png"_s}};
        const auto prepared = AttachmentParts::image(attachment(u"noise.png"_s, png), limits);
        QVERIFY2(prepared->ok(), qPrintable(prepared->error));
        QVERIFY(prepared->scaled);
        QVERIFY(prepared->byteCount <= limits.maxBytes);
        const QImage sent = QImage::fromData(QByteArray::fromBase64(prepared->base64));
        QCOMPARE(sent.size(), prepared->pixelSize);
        // The aspect ratio stays, give or take the pixel rounding.
        QVERIFY(qAbs(double(sent.width()) / sent.height() - 1.4) < 0.01);
    }

    void anImageNoneCanSendFailsBeforeAnythingIsSent()
    {
        // Ollama reads no WebP, and Qt here cannot decode it to convert it.
        Fixture f(ProviderKind::Ollama);
        QSignalSpy failed(f.client.get(), &ModelClient::failed);
        QSignalSpy attempts(f.client.get(), &ModelClient::attemptFinished);
        f.client->send(requestWith({attachment(u"sticker.webp"_s, webpImage())}));
        QVERIFY(failed.isEmpty()); // never from inside send()
        QVERIFY(failed.wait(10'000));
        const ModelError error = failed.at(0).at(0).value<ModelError>();
        QVERIFY2(error.message.contains(u"sticker.webp"_s) && error.message.contains(u"image/webp"_s),
                 qPrintable(error.message));
        QVERIFY(attempts.isEmpty());
        QVERIFY(f.server.requests().isEmpty());
    }

    void anImageIsEncodedOncePerTurnNotOncePerRequest()
    {
        Fixture f(ProviderKind::OpenAi);
        const Attachment image = attachment(u"chart.png"_s, encodedImage("png", QSize(900, 900)));
        ModelRequest request = requestWith({image});
        QVERIFY(f.run(request));
        QVERIFY(f.client->lastEncodingCost().encodedBytes
                > image.bytes.size()); // the first request encodes it
        QVERIFY(AttachmentParts::isPrepared(image, OpenAiProtocol::images()));

        // The next request of the turn carries the same history and more: only the new message is encoded.
        request.messages.append(Message::assistant(u"A chart."_s));
        request.messages.append(Message::user(u"And the colours?"_s));
        QVERIFY(f.run(request));
        QVERIFY(f.client->lastEncodingCost().encodedBytes < 200);
        QCOMPARE(f.server.requests().size(), 2);
        QVERIFY(f.server.requests().at(1).body.contains(image.bytes.toBase64())); // and it still goes

        // Every protocol shares the prepared image: asked again, it is the same base64, not a new one.
        const auto first = AttachmentParts::image(image, AnthropicProtocol::images());
        const auto again = AttachmentParts::image(image, AnthropicProtocol::images());
        QCOMPARE(first.get(), again.get());
    }

    void aRequestCancelledWhileItsImagesArePreparedSendsNothing()
    {
        Fixture f(ProviderKind::Anthropic);
        QSignalSpy finished(f.client.get(), &ModelClient::finished);
        QSignalSpy failed(f.client.get(), &ModelClient::failed);
        f.client->send(requestWith({attachment(u"huge.png"_s, encodedImage("png", QSize(9000, 3000)))}));
        f.client->cancel();
        QTest::qWait(1500);
        QVERIFY(f.server.requests().isEmpty());
        QVERIFY(finished.isEmpty());
        QVERIFY(failed.isEmpty());
    }

    void aToolResultsImageArrivesByteForByteWhereTheProtocolTakesIt_data() { addProtocols(); }

    void aToolResultsImageArrivesByteForByteWhereTheProtocolTakesIt()
    {
        QFETCH(ProviderKind, kind);
        Fixture f(kind);
        const QByteArray png = encodedImage("png", QSize(320, 200));
        QVERIFY(f.run(toolResultRequest(attachment(u"screenshot-1.png"_s, png))));

        QCOMPARE(f.server.requests().size(), 1);
        const SentToolImage sent = sentToolImage(kind, f.server.requests().constFirst().json());
        QCOMPARE(sent.image.mimeType, u"image/png"_s);
        QCOMPARE(sent.image.bytes, png);
        QCOMPARE(QImage::fromData(sent.image.bytes).size(), QSize(320, 200));
        QVERIFY2(sent.resultText.startsWith(u"The screen:"_s), qPrintable(sent.resultText));
        if (kind == ProviderKind::OpenAi || kind == ProviderKind::Ollama) {
            // The result says where its image went, and the message with it names the call.
            QVERIFY2(sent.resultText.contains(u"1 image: in the user message after the tool results"_s),
                     qPrintable(sent.resultText));
            QVERIFY2(sent.besideText.contains(u"screenshot (call call_1): 1 image"_s),
                     qPrintable(sent.besideText));
        }
    }

    void aToolResultsImageIsEncodedTheSameWhenRebuiltForTheDetailsPane_data() { addProtocols(); }

    void aToolResultsImageIsEncodedTheSameWhenRebuiltForTheDetailsPane()
    {
        QFETCH(ProviderKind, kind);
        Fixture f(kind);
        const ModelRequest request
            = toolResultRequest(attachment(u"screenshot-1.png"_s, encodedImage("png", {64, 64})));
        QVERIFY(f.run(request));
        QCOMPARE(f.server.requests().size(), 1);
        // Raw and Copy as curl rebuild the body from the recorded request: it must be what was sent.
        QCOMPARE(RecordedBody::rebuild(providerKindName(kind), request).toObject(),
                 f.server.requests().constFirst().json());
    }

    void aMessageWithoutAttachmentsKeepsItsPlainTextContent_data() { addProtocols(); }

    void aMessageWithoutAttachmentsKeepsItsPlainTextContent()
    {
        QFETCH(ProviderKind, kind);
        const QJsonObject body = RecordedBody::rebuild(providerKindName(kind), requestWith({})).toObject();
        const QByteArray text = QJsonDocument(body).toJson(QJsonDocument::Compact);
        QVERIFY(!text.contains("image"));
        QVERIFY(!text.contains("inlineData"));
        if (kind == ProviderKind::OpenAi || kind == ProviderKind::Ollama)
            QVERIFY(body.value(u"messages"_s).toArray().last().toObject().value(u"content"_s).isString());
    }
};

QTEST_GUILESS_MAIN(TestAttachmentWire)
#include "tst_attachmentwire.moc"
