#include "agent/conversation/attachmentloader.h"
#include "agent/conversation/message.h"
#include "agent/conversation/samemessage.h"

#include "tests/support/testpdf.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFutureWatcher>
#include <QImage>
#include <QImageReader>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Loopscope;

using Loopscope::Testing::pdfWithPages;

namespace {

QByteArray encodedImage(const char *format, QSize size = QSize(40, 30))
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::darkCyan);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, format);
    if (!writer.write(image))
        qFatal("cannot write a %s test image: %s", format, qPrintable(writer.errorString()));
    return bytes;
}

// A 1x1 GIF (43 bytes): Qt reads GIF but cannot write it.
QByteArray gifImage()
{
    return QByteArray::fromBase64("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==");
}

// A 1x1 lossless WebP (34 bytes): Qt decodes it only with the image-formats plugin.
QByteArray webpImage()
{
    return QByteArray::fromBase64("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==");
}

} // namespace

class TestAttachments final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

private slots:
    void anImagesTypeComesFromItsBytesNotItsName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("mimeType");
        QTest::addColumn<QSize>("pixelSize");
        QTest::newRow("a PNG") << u"chart.png"_s << encodedImage("png") << u"image/png"_s << QSize(40, 30);
        QTest::newRow("a JPEG called .png")
            << u"photo.png"_s << encodedImage("jpeg") << u"image/jpeg"_s << QSize(40, 30);
        QTest::newRow("a GIF") << u"anim.gif"_s << gifImage() << u"image/gif"_s << QSize(1, 1);
        QTest::newRow("a PNG called notes.txt")
            << u"notes.txt"_s << encodedImage("png") << u"image/png"_s << QSize(40, 30);
        const bool decodesWebp = QImageReader::supportedImageFormats().contains("webp");
        QTest::newRow("a WebP") << u"pic.webp"_s << webpImage() << u"image/webp"_s
                                << (decodesWebp ? QSize(1, 1) : QSize());
    }

    void anImagesTypeComesFromItsBytesNotItsName()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, mimeType);
        QFETCH(QSize, pixelSize);
        const AttachmentLoad load = AttachmentLoader::load(write(name, bytes));
        QVERIFY2(load.ok(), qPrintable(load.error));
        const Attachment &attachment = *load.attachment;
        QCOMPARE(attachment.kind, Attachment::Kind::Image);
        QCOMPARE(attachment.name, name);
        QCOMPARE(attachment.mimeType, mimeType);
        QCOMPARE(attachment.bytes, bytes);
        QCOMPARE(attachment.fileSize, bytes.size());
        QCOMPARE(attachment.pixelSize, pixelSize);
        QCOMPARE(attachment.sha256, QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
        QVERIFY(attachment.text.isEmpty());
    }

    void textFilesAreReadAsTextWithTheirName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("mimeType");
        QTest::addColumn<QString>("text");
        QTest::newRow("Markdown") << u"README.md"_s << QByteArray("# Title\n\nSome *text*.\n")
                                  << u"text/markdown"_s << u"# Title\n\nSome *text*.\n"_s;
        QTest::newRow("JSON") << u"data.json"_s << QByteArray(R"({"a": [1, 2]})") << u"application/json"_s
                              << uR"({"a": [1, 2]})"_s;
        QTest::newRow("CSV") << u"table.csv"_s << QByteArray("city,temp\nZürich,4\n") << u"text/csv"_s
                             << u"city,temp\nZürich,4\n"_s;
        QTest::newRow("code with a byte order mark")
            << u"main.cpp"_s << QByteArray("\xef\xbb\xbfint main() { return 0; }\n") << u"text/plain"_s
            << u"int main() { return 0; }\n"_s;
        QTest::newRow("an empty file") << u"empty.txt"_s << QByteArray() << u"text/plain"_s << QString();
    }

    void textFilesAreReadAsTextWithTheirName()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, mimeType);
        QFETCH(QString, text);
        const AttachmentLoad load = AttachmentLoader::load(write(name, bytes));
        QVERIFY2(load.ok(), qPrintable(load.error));
        QCOMPARE(load.attachment->kind, Attachment::Kind::Text);
        QCOMPARE(load.attachment->name, name);
        QCOMPARE(load.attachment->mimeType, mimeType);
        QCOMPARE(load.attachment->text, text);
        QVERIFY(load.attachment->bytes.isEmpty());
        QCOMPARE(load.attachment->fileSize, bytes.size());
    }

    void aLongTextIsCutAtTheCapWithANoteSayingSo()
    {
        const QByteArray line = "0123456789abcdef\n";
        const QByteArray bytes = line.repeated(AttachmentLoader::MaxTextCharacters / line.size() + 100);
        const AttachmentLoad load = AttachmentLoader::fromBytes(u"long.log"_s, bytes);
        QVERIFY2(load.ok(), qPrintable(load.error));
        const QString text = load.attachment->text;
        QVERIFY(text.startsWith(QString::fromLatin1(bytes.first(AttachmentLoader::MaxTextCharacters))));
        QVERIFY(text.size() < bytes.size());
        QVERIFY2(text.contains(u"Truncated"_s) && text.contains(QLocale().toString(bytes.size())),
                 qPrintable(text.right(200)));
        QCOMPARE(load.attachment->fileSize, bytes.size()); // the file's own size stays what it was

        const AttachmentLoad small = AttachmentLoader::fromBytes(u"short.log"_s, line);
        QCOMPARE(small.attachment->text, QString::fromLatin1(line));
    }

    void aPdfIsReadAsTextPageByPageWithPageMarkers()
    {
        const QString path
            = write(u"report.pdf"_s, pdfWithPages({u"First page words"_s, u"Second page words"_s}));
        const AttachmentLoad load = AttachmentLoader::load(path);
        QVERIFY2(load.ok(), qPrintable(load.error));
        QCOMPARE(load.attachment->kind, Attachment::Kind::Text);
        QCOMPARE(load.attachment->mimeType, u"application/pdf"_s);
        QCOMPARE(load.attachment->text, u"--- Page 1 of 2 ---\nFirst page words\n"
                                        "--- Page 2 of 2 ---\nSecond page words\n"_s);
    }

    void aPdfWithoutATextLayerIsRefusedSayingSo()
    {
        const AttachmentLoad load = AttachmentLoader::load(write(u"scan.pdf"_s, pdfWithPages({{}, {}})));
        QVERIFY(!load.ok());
        QVERIFY2(load.error.contains(u"'scan.pdf'"_s) && load.error.contains(u"no text layer"_s),
                 qPrintable(load.error));
    }

    void otherBinaryFilesAreRefusedNamingTheirType_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("typeName");
        QByteArray zip("PK\x03\x04\x14\x00\x00\x00\x08\x00", 10);
        zip.append(QByteArray(40, '\x01'));
        QTest::newRow("a ZIP archive called .txt") << u"notes.txt"_s << zip << u"application/zip"_s;
        QByteArray elf("\x7f"
                       "ELF\x02\x01\x01\x00",
                       8);
        elf.append(QByteArray(56, '\0'));
        QTest::newRow("a program") << u"tool"_s << elf << u"application/x-"_s;
    }

    void otherBinaryFilesAreRefusedNamingTheirType()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, typeName);
        const AttachmentLoad load = AttachmentLoader::load(write(name, bytes));
        QVERIFY(!load.ok());
        QVERIFY2(load.error.contains(u"'%1'"_s.arg(name)) && load.error.contains(typeName),
                 qPrintable(load.error));
    }

    void textInAnotherEncodingIsRefusedAsTextThatIsNotUtf8_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("Latin-1") << QByteArray("caf\xe9 cr\xe8me br\xfbl\xe9"
                                               "e\n");
        QTest::newRow("Windows-1252 quotes") << QByteArray("\x93quoted\x94 text\n");
    }

    void textInAnotherEncodingIsRefusedAsTextThatIsNotUtf8()
    {
        QFETCH(QByteArray, bytes);
        const AttachmentLoad load = AttachmentLoader::load(write(u"legacy.txt"_s, bytes));
        QVERIFY(!load.ok());
        // It says what is wrong and what to do, and does not call a text file "not a text file".
        QVERIFY2(load.error.contains(u"'legacy.txt': it is text, but not UTF-8"_s), qPrintable(load.error));
        QVERIFY2(load.error.contains(u"Save it as UTF-8"_s), qPrintable(load.error));
        QVERIFY2(!load.error.contains(u"a text file"_s), qPrintable(load.error));
    }

    void badFilesAreClearErrors_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("why");
        QTest::newRow("a missing file") << m_dir.filePath(u"gone.png"_s) << u"does not exist"_s;
        QTest::newRow("a folder") << m_dir.path() << u"not a file"_s;
        // Opens, but reading its first byte fails (EIO), even for root.
        QTest::newRow("an unreadable file") << u"/proc/self/mem"_s << u"Input/output error"_s;

        const QString large = m_dir.filePath(u"large.txt"_s);
        QFile file(large);
        if (!file.open(QIODevice::WriteOnly) || !file.resize(AttachmentLoader::MaxFileSize + 1))
            qFatal("cannot make a large file");
        QTest::newRow("a file over 20 MB") << large << u"over the limit of 20 MiB"_s;

        const QByteArray png = encodedImage("png", QSize(200, 200));
        QTest::newRow("a cut-off PNG") << write(u"cut.png"_s, png.left(png.size() / 2)) << u"is corrupt"_s;
        QByteArray jpeg = encodedImage("jpeg", QSize(200, 200));
        QTest::newRow("a JPEG of only its header") << write(u"head.jpg"_s, jpeg.left(20)) << u"is corrupt"_s;
        QTest::newRow("a cut-off WebP") << write(u"cut.webp"_s, webpImage().left(30)) << u"is corrupt"_s;
        QTest::newRow("a PDF that is not one") << write(u"fake.pdf"_s, "%PDF-1.4\ngarbage\n") << u"PDF"_s;
    }

    void badFilesAreClearErrors()
    {
        QFETCH(QString, path);
        QFETCH(QString, why);
        const AttachmentLoad load = AttachmentLoader::load(path);
        QVERIFY(!load.attachment);
        QVERIFY2(load.error.startsWith(u"Cannot attach '"_s) && load.error.contains(why),
                 qPrintable(load.error));
    }

    void loadingLaterGivesTheSameAttachmentWithoutBlockingTheCaller()
    {
        const QString path = write(u"later.png"_s, encodedImage("png"));
        QFutureWatcher<AttachmentLoad> watcher;
        QSignalSpy finished(&watcher, &QFutureWatcherBase::finished);
        watcher.setFuture(AttachmentLoader::loadLater(path));
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(watcher.result().ok());
        QCOMPARE(*watcher.result().attachment, *AttachmentLoader::load(path).attachment);
    }

    void pastedBytesAreReadLikeAFileOfThatName()
    {
        const QByteArray png = encodedImage("png");
        const AttachmentLoad load = AttachmentLoader::fromBytes(u"pasted.png"_s, png);
        QVERIFY2(load.ok(), qPrintable(load.error));
        QCOMPARE(load.attachment->name, u"pasted.png"_s);
        QCOMPARE(load.attachment->bytes, png);
        QCOMPARE(load.attachment->mimeType, u"image/png"_s);
    }

    void aMessagesAttachmentsSurviveItsJson()
    {
        const Attachment image = *AttachmentLoader::fromBytes(u"a.png"_s, encodedImage("png")).attachment;
        const Attachment text = *AttachmentLoader::fromBytes(u"b.md"_s, "# Hi\n").attachment;
        const Message message = Message::user(u"look"_s, {image, text});
        const QJsonObject json = message.toJson();
        QCOMPARE(json.value(u"attachments"_s).toArray().size(), 2);
        QCOMPARE(Message::fromJson(json), message);
    }

    void aMessageWithoutAttachmentsKeepsItsJsonShape()
    {
        QVERIFY(!Message::user(u"plain"_s).toJson().contains(u"attachments"_s));
    }

    void messagesWithDifferentAttachmentsAreNotTheSame()
    {
        const Attachment first = *AttachmentLoader::fromBytes(u"a.md"_s, "one").attachment;
        const Attachment second = *AttachmentLoader::fromBytes(u"a.md"_s, "two").attachment;
        const Message a = Message::user(u"look"_s, {first});
        QVERIFY(isSameMessage(a, a));
        QVERIFY(!isSameMessage(a, Message::user(u"look"_s, {second})));
        QVERIFY(!isSameMessage(a, Message::user(u"look"_s)));
    }
};

QTEST_GUILESS_MAIN(TestAttachments)
#include "tst_attachments.moc"
