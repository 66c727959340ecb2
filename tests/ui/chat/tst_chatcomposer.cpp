#include "agent/conversation/attachmentloader.h"
#include "tests/support/testfiles.h"
#include "tests/support/testimages.h"
#include "tests/support/urlrecorder.h"
#include "ui/chat/attachmentchip.h"
#include "ui/chat/chatcomposer.h"
#include "ui/chat/composerattachments.h"

#include <QBuffer>
#include <QClipboard>
#include <QDesktopServices>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QGuiApplication>
#include <QImage>
#include <QLabel>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUrl>

using namespace Loopscope;
using namespace Loopscope::Ui;
using namespace Qt::StringLiterals;

namespace {

QByteArray pngBytes()
{
    return Testing::pngBytes(QSize(40, 30));
}

// Drops \a data on \a target as a window system would: enter, then drop.
bool drop(QWidget *target, QMimeData *data)
{
    const QPointF centre = QRectF(target->rect()).center();
    QDragEnterEvent enter(centre.toPoint(), Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(target, &enter);
    QDropEvent dropped(centre, Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(target, &dropped);
    return enter.isAccepted() && dropped.isAccepted();
}

QMimeData *filesData(const QStringList &paths)
{
    auto *data = new QMimeData;
    QList<QUrl> urls;
    for (const QString &path : paths)
        urls.append(QUrl::fromLocalFile(path));
    data->setUrls(urls);
    return data;
}

} // namespace

class ChatComposerTest : public QObject
{
    Q_OBJECT

private slots:
    void enterSendsOrBreaksTheLineAsConfigured_data()
    {
        QTest::addColumn<bool>("sendOnEnter");
        QTest::addColumn<int>("key");
        QTest::addColumn<Qt::KeyboardModifiers>("modifiers");
        QTest::addColumn<bool>("sends");

        const Qt::KeyboardModifiers none = Qt::NoModifier;
        QTest::newRow("Ctrl+Enter sends")
            << false << int(Qt::Key_Return) << Qt::KeyboardModifiers(Qt::ControlModifier) << true;
        QTest::newRow("keypad Ctrl+Enter sends")
            << false << int(Qt::Key_Enter) << (Qt::ControlModifier | Qt::KeypadModifier) << true;
        QTest::newRow("Enter makes a new line") << false << int(Qt::Key_Return) << none << false;
        QTest::newRow("Shift+Enter makes a new line")
            << false << int(Qt::Key_Return) << Qt::KeyboardModifiers(Qt::ShiftModifier) << false;
        QTest::newRow("with send on Enter, Enter sends") << true << int(Qt::Key_Return) << none << true;
        QTest::newRow("with send on Enter, Shift+Enter makes a new line")
            << true << int(Qt::Key_Return) << Qt::KeyboardModifiers(Qt::ShiftModifier) << false;
        QTest::newRow("with send on Enter, Ctrl+Enter still sends")
            << true << int(Qt::Key_Return) << Qt::KeyboardModifiers(Qt::ControlModifier) << true;
    }
    void enterSendsOrBreaksTheLineAsConfigured()
    {
        QFETCH(bool, sendOnEnter);
        QFETCH(int, key);
        QFETCH(Qt::KeyboardModifiers, modifiers);
        QFETCH(bool, sends);

        ChatComposer composer;
        composer.setSendOnEnter(sendOnEnter);
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        QTest::keyClicks(composer.editor(), u"hello"_s);
        QTest::keyClick(composer.editor(), Qt::Key(key), modifiers);

        if (sends) {
            QCOMPARE(sent.size(), 1);
            QCOMPARE(sent.at(0).at(0).toString(), u"hello"_s);
            QCOMPARE(composer.text(), QString());
        } else {
            QCOMPARE(sent.size(), 0);
            QCOMPARE(composer.editor()->blockCount(), 2);
            QTest::keyClicks(composer.editor(), u"world"_s);
            QCOMPARE(composer.text(), u"hello\nworld"_s);
        }
    }

    void theSendButtonSendsTheTrimmedText()
    {
        ChatComposer composer;
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        QVERIFY(!composer.sendButton()->isEnabled());
        composer.setText(u"  line one\nline two \n"_s);
        QVERIFY(composer.sendButton()->isEnabled());
        QTest::mouseClick(composer.sendButton(), Qt::LeftButton);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.at(0).at(0).toString(), u"line one\nline two"_s);
        QVERIFY(!composer.sendButton()->isEnabled());
    }

    void blankTextIsNotSent()
    {
        ChatComposer composer;
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        composer.setText(u"  \n\t "_s);
        QTest::keyClick(composer.editor(), Qt::Key_Return, Qt::ControlModifier);
        composer.send();
        QCOMPARE(sent.size(), 0);
    }

    void escapeCancelsOnlyWhileBusy_data()
    {
        QTest::addColumn<bool>("busy");
        QTest::newRow("while a turn runs") << true;
        QTest::newRow("between turns") << false;
    }
    void escapeCancelsOnlyWhileBusy()
    {
        QFETCH(bool, busy);
        ChatComposer composer;
        composer.setBusy(busy);
        QSignalSpy cancelled(&composer, &ChatComposer::cancelRequested);
        QTest::keyClick(composer.editor(), Qt::Key_Escape);
        QCOMPARE(cancelled.size(), busy ? 1 : 0);
    }

    void editingShowsABannerAndSendAsksForTheResend()
    {
        ChatComposer composer;
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        QSignalSpy editing(&composer, &ChatComposer::editingChanged);
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        QSignalSpy resent(&composer, &ChatComposer::editResendRequested);

        composer.beginEdit(u"What is 2 + 2?"_s);
        QVERIFY(composer.isEditing());
        QVERIFY(composer.editBanner()->isVisible());
        QCOMPARE(composer.text(), u"What is 2 + 2?"_s);
        QCOMPARE(editing.size(), 1);

        QTest::keyClicks(composer.editor(), u" And 3 + 3?"_s);
        composer.send();
        QCOMPARE(resent.size(), 1);
        QCOMPARE(resent.first().first().toString(), u"What is 2 + 2? And 3 + 3?"_s);
        QCOMPARE(sent.size(), 0);
        QVERIFY(!composer.isEditing());
        QVERIFY(!composer.editBanner()->isVisible());
        QCOMPARE(editing.last().first().toBool(), false);
    }

    void leavingEditModeBringsBackTheDraft_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("Esc") << u"Esc"_s;
        QTest::newRow("Cancel") << u"Cancel"_s;
    }

    void leavingEditModeBringsBackTheDraft()
    {
        QFETCH(QString, how);
        ChatComposer composer;
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        QTest::keyClicks(composer.editor(), u"a draft"_s);
        QSignalSpy editing(&composer, &ChatComposer::editingChanged);
        composer.beginEdit(u"the last question"_s);
        QVERIFY(composer.isEditing());

        if (how == u"Esc")
            QTest::keyClick(composer.editor(), Qt::Key_Escape);
        else
            QTest::mouseClick(composer.cancelEditButton(), Qt::LeftButton);

        QVERIFY(!composer.isEditing());
        QVERIFY(!composer.editBanner()->isVisible());
        QCOMPARE(composer.text(), u"a draft"_s);
        QCOMPARE(editing.size(), 2);
        QCOMPARE(editing.last().first().toBool(), false);
    }

    // The edited question's files come back as removable chips; Cancel brings back the draft's own.
    void editingBringsBackTheQuestionsAttachmentsAndCancelTheDrafts()
    {
        ChatComposer composer;
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        composer.attachmentList()->addBytes(u"draft.png"_s, pngBytes());
        QTRY_COMPARE(composer.attachmentList()->count(), 1);
        const Attachment asked = *AttachmentLoader::fromBytes(u"asked.png"_s, pngBytes()).attachment;
        QSignalSpy resent(&composer, &ChatComposer::editResendRequested);

        composer.beginEdit(u"the last question"_s, {asked});
        QCOMPARE(composer.attachments(), QList<Attachment>{asked});
        QVERIFY(composer.attachmentList()->chips().constFirst()->removeButton());
        QTest::mouseClick(composer.cancelEditButton(), Qt::LeftButton);
        QCOMPARE(composer.attachments().size(), 1);
        QCOMPARE(composer.attachments().constFirst().name, u"draft.png"_s);

        composer.beginEdit(u"the last question"_s, {asked});
        composer.send();
        QCOMPARE(resent.size(), 1);
        // The window clears them once the session took them.
        QCOMPARE(composer.attachments(), QList<Attachment>{asked});
    }

    // A refusal of the attachment check keeps the message and offers Send Anyway, which goes past it.
    void aRefusedAttachmentCanBeSentAnyway_data()
    {
        QTest::addColumn<bool>("editing");
        QTest::newRow("a new question") << false;
        QTest::newRow("an edited question") << true;
    }
    void aRefusedAttachmentCanBeSentAnyway()
    {
        QFETCH(bool, editing);
        ChatComposer composer;
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        composer.setAttachmentCheck([](const QList<Attachment> &attachments) {
            return attachments.isEmpty() ? QString() : u"The model reads no images."_s;
        });
        QSignalSpy sent(&composer,
                        editing ? &ChatComposer::editResendRequested : &ChatComposer::sendRequested);
        if (editing)
            composer.beginEdit(u"Look"_s);
        else
            composer.setText(u"Look"_s);
        composer.attachmentList()->addBytes(u"chart.png"_s, pngBytes());
        QTRY_COMPARE(composer.attachmentList()->count(), 1);
        QVERIFY(!composer.sendAnywayButton()->isVisible());

        composer.send();
        QCOMPARE(sent.size(), 0);
        QCOMPARE(composer.text(), u"Look"_s);
        QCOMPARE(composer.isEditing(), editing);
        QCOMPARE(composer.attachmentList()->problem(), u"The model reads no images."_s);
        QVERIFY(composer.sendAnywayButton()->isVisible());

        QTest::mouseClick(composer.sendAnywayButton(), Qt::LeftButton);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.first().at(0).toString(), u"Look"_s);
        QCOMPARE(sent.first().at(1).toBool(), true);
        QVERIFY(!composer.sendAnywayButton()->isVisible());
    }

    void changingTheAttachmentsWithdrawsSendAnyway()
    {
        ChatComposer composer;
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        composer.setAttachmentCheck([](const QList<Attachment> &attachments) {
            return attachments.isEmpty() ? QString() : u"The model reads no images."_s;
        });
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        composer.setText(u"Look"_s);
        composer.attachmentList()->addBytes(u"chart.png"_s, pngBytes());
        QTRY_COMPARE(composer.attachmentList()->count(), 1);
        composer.send();
        QVERIFY(composer.sendAnywayButton()->isVisible());

        composer.attachmentList()->chips().constFirst()->removeButton()->click();
        QVERIFY(!composer.sendAnywayButton()->isVisible());
        QVERIFY(composer.attachmentList()->problem().isEmpty());
        composer.send();
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.first().at(1).toBool(), false);
    }

    void aQuestionWrittenAfterEmptyingTheEditIsSentAsANewOne()
    {
        ChatComposer composer;
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        QSignalSpy resent(&composer, &ChatComposer::editResendRequested);
        composer.beginEdit(u"the last question"_s);

        composer.editor()->selectAll();
        QTest::keyClick(composer.editor(), Qt::Key_Delete);
        QVERIFY(!composer.isEditing());
        QTest::keyClicks(composer.editor(), u"a new question"_s);
        composer.send();

        QCOMPARE(resent.size(), 0);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.first().first().toString(), u"a new question"_s);
    }

    void whileBusyStopReplacesSendAndNothingIsSent()
    {
        ChatComposer composer;
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        QSignalSpy cancelled(&composer, &ChatComposer::cancelRequested);
        QVERIFY(composer.sendButton()->isVisible());
        QVERIFY(!composer.stopButton()->isVisible());

        composer.setBusy(true);
        QVERIFY(!composer.sendButton()->isVisible());
        QVERIFY(composer.stopButton()->isVisible());
        QTest::keyClicks(composer.editor(), u"next question"_s);
        QTest::keyClick(composer.editor(), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(sent.size(), 0);
        QCOMPARE(composer.text(), u"next question"_s); // kept for when the turn ends

        QTest::mouseClick(composer.stopButton(), Qt::LeftButton);
        QCOMPARE(cancelled.size(), 1);

        composer.setBusy(false);
        QVERIFY(composer.sendButton()->isVisible());
        QVERIFY(!composer.stopButton()->isVisible());
        QTest::keyClick(composer.editor(), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.at(0).at(0).toString(), u"next question"_s);
    }

    void setTextPreparesAnEditWithTheCursorAtTheEnd()
    {
        ChatComposer composer;
        composer.setText(u"What is 2 + 2?"_s);
        QCOMPARE(composer.text(), u"What is 2 + 2?"_s);
        QCOMPARE(composer.editor()->textCursor().position(), int(u"What is 2 + 2?"_s.size()));
        QTest::keyClicks(composer.editor(), u" And 3 + 3?"_s);
        QCOMPARE(composer.text(), u"What is 2 + 2? And 3 + 3?"_s);
    }

    void theEditorGrowsWithItsTextUpToALimit()
    {
        ChatComposer composer;
        composer.resize(400, 300);
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        const int empty = composer.editor()->height();
        composer.setText(u"1\n2\n3\n4\n5"_s);
        QTRY_VERIFY(composer.editor()->height() > empty);
        const int five = composer.editor()->height();
        composer.setText(QStringList(40, u"line"_s).join(u'\n'));
        QTRY_VERIFY(composer.editor()->height() > five);
        const int many = composer.editor()->height();
        composer.setText(QStringList(80, u"line"_s).join(u'\n'));
        QTest::qWait(20);
        QCOMPARE(composer.editor()->height(), many);
    }

    void filesThatCannotBeSentAreRefusedSayingWhyAndTheTextStays_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("reason");

        QByteArray corrupt = pngBytes();
        corrupt.truncate(60);
        QTest::newRow("a missing file") << u"gone.png"_s << QByteArray() << u"does not exist"_s;
        QTest::newRow("a file over the cap")
            << u"huge.txt"_s << QByteArray(AttachmentLoader::MaxFileSize + 1, 'a') << u"over the limit"_s;
        QTest::newRow("a corrupt image") << u"broken.png"_s << corrupt << u"image is corrupt"_s;
        QTest::newRow("a binary type no model reads")
            << u"archive.zip"_s << QByteArray("PK\x03\x04\x14\x00\x00\x00\x08\x00\x00\x00\xff\xfe", 14)
            << u"not an image"_s;
    }
    void filesThatCannotBeSentAreRefusedSayingWhyAndTheTextStays()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        if (!content.isEmpty())
            QVERIFY(Testing::writeFile(path, content));

        ChatComposer composer;
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        composer.setText(u"What is in it?"_s);
        composer.attachmentList()->addFiles({path});
        QTRY_VERIFY(!composer.attachmentList()->isLoading());

        QCOMPARE(composer.attachmentList()->count(), 0);
        const QString problem = composer.attachmentList()->problem();
        QVERIFY2(problem.contains(name) && problem.contains(reason), qPrintable(problem));
        QVERIFY(!composer.attachmentList()->problemLabel()->isHidden());
        QCOMPARE(composer.text(), u"What is in it?"_s);
        QVERIFY(composer.attachments().isEmpty());
    }

    void aFileRemovedFromDiskAfterChoosingStopsTheSendAndKeepsTheMessage()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"notes.md"_s);
        QVERIFY(Testing::writeFile(path, "# Notes\n"));
        ChatComposer composer;
        QSignalSpy sent(&composer, &ChatComposer::sendRequested);
        composer.attachmentList()->addFiles({path});
        QTRY_COMPARE(composer.attachmentList()->count(), 1);
        QVERIFY(QFile::remove(path));

        composer.setText(u"Summarise these notes"_s);
        composer.send();
        QCOMPARE(sent.size(), 0);
        QCOMPARE(composer.text(), u"Summarise these notes"_s);
        QCOMPARE(composer.attachmentList()->count(), 1);
        QVERIFY2(composer.attachmentList()->problem().contains(u"no longer on disk"_s),
                 qPrintable(composer.attachmentList()->problem()));

        // Removed from the message, the question goes without it.
        composer.attachmentList()->chips().constFirst()->removeButton()->click();
        QTRY_COMPARE(composer.attachmentList()->count(), 0);
        QVERIFY(composer.attachmentList()->problem().isEmpty());
        composer.send();
        QCOMPARE(sent.size(), 1);
    }

    void droppedOrPastedFilesBecomeChipsThatOpenAndRemove_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("description");

        QTest::newRow("a file dropped on the editor")
            << u"drop on editor"_s << u"chart.png"_s << u"PNG image"_s;
        QTest::newRow("a file dropped on the chat") << u"drop on chat"_s << u"chart.png"_s << u"PNG image"_s;
        QTest::newRow("a copied file pasted") << u"paste file"_s << u"chart.png"_s << u"PNG image"_s;
        QTest::newRow("an image pasted") << u"paste image"_s << u"pasted-image.png"_s << u"PNG image"_s;
        QTest::newRow("a text file dropped") << u"drop text file"_s << u"notes.md"_s << u"text/markdown"_s;
    }
    void droppedOrPastedFilesBecomeChipsThatOpenAndRemove()
    {
        QFETCH(QString, how);
        QFETCH(QString, name);
        QFETCH(QString, description);
        QTemporaryDir dir;
        const QByteArray png = pngBytes();
        const QString chart = dir.filePath(u"chart.png"_s);
        const QString notes = dir.filePath(u"notes.md"_s);
        QVERIFY(Testing::writeFile(chart, png));
        QVERIFY(Testing::writeFile(notes, "# Notes\n\n- one\n"));

        QWidget chat;
        ChatComposer composer;
        composer.takeDropsOn(&chat);
        composer.setText(u"Look"_s);
        if (how == u"drop on editor"_s) {
            std::unique_ptr<QMimeData> data(filesData({chart}));
            QVERIFY(drop(composer.editor()->viewport(), data.get()));
        } else if (how == u"drop on chat"_s) {
            std::unique_ptr<QMimeData> data(filesData({chart}));
            QVERIFY(drop(&chat, data.get()));
        } else if (how == u"drop text file"_s) {
            std::unique_ptr<QMimeData> data(filesData({notes}));
            QVERIFY(drop(composer.editor()->viewport(), data.get()));
        } else if (how == u"paste file"_s) {
            QGuiApplication::clipboard()->setMimeData(filesData({chart}));
            composer.editor()->paste();
        } else {
            auto *data = new QMimeData;
            data->setImageData(QImage::fromData(png));
            QGuiApplication::clipboard()->setMimeData(data);
            composer.editor()->paste();
        }
        QTRY_COMPARE(composer.attachmentList()->count(), 1);
        // The file went into the message, not its path into the text.
        QCOMPARE(composer.text(), u"Look"_s);
        const QList<Attachment> attachments = composer.attachments();
        QCOMPARE(attachments.constFirst().name, name);
        if (attachments.constFirst().isImage())
            QCOMPARE(QImage::fromData(attachments.constFirst().bytes).size(), QSize(40, 30));
        if (how != u"paste image"_s && attachments.constFirst().isImage())
            QCOMPARE(attachments.constFirst().bytes, png);
        AttachmentChip *chip = composer.attachmentList()->chips().constFirst();
        QVERIFY2(chip->description().startsWith(description), qPrintable(chip->description()));
        QVERIFY(!chip->thumbnail()->pixmap().isNull());

        Testing::UrlRecorder desktop;
        QDesktopServices::setUrlHandler(u"file"_s, &desktop, "open");
        QTest::mouseClick(chip, Qt::LeftButton);
        QDesktopServices::unsetUrlHandler(u"file"_s);
        QCOMPARE(desktop.opened.size(), 1);
        QFile opened(desktop.opened.constFirst().toLocalFile());
        QVERIFY(opened.open(QIODevice::ReadOnly));
        // The file itself, or for a pasted image a copy of the bytes that are sent.
        QCOMPARE(opened.readAll(), attachments.constFirst().isImage() ? attachments.constFirst().bytes
                                                                      : QByteArray("# Notes\n\n- one\n"));

        chip->removeButton()->click();
        QTRY_VERIFY(composer.attachments().isEmpty());
        QVERIFY(composer.attachmentList()->chips().isEmpty());
    }

    void plainTextPastedStaysText()
    {
        ChatComposer composer;
        auto *data = new QMimeData;
        data->setText(u"just words"_s);
        QGuiApplication::clipboard()->setMimeData(data);
        composer.editor()->paste();
        QCOMPARE(composer.text(), u"just words"_s);
        QTest::qWait(20);
        QCOMPARE(composer.attachmentList()->count(), 0);
        QVERIFY(composer.attachmentList()->isHidden());
    }

    void attachOpensAFileDialogWhoseFilesAreAttached()
    {
        QTemporaryDir dir;
        const QString chart = dir.filePath(u"chart.png"_s);
        QVERIFY(Testing::writeFile(chart, pngBytes()));
        ChatComposer composer;
        composer.attachButton()->click();
        QFileDialog *dialog = composer.fileDialog();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->fileMode(), QFileDialog::ExistingFiles);
        emit dialog->filesSelected({chart});
        dialog->close();
        QTRY_COMPARE(composer.attachmentList()->count(), 1);
        QCOMPARE(composer.attachments().constFirst().name, u"chart.png"_s);
    }
};

QTEST_MAIN(ChatComposerTest)
#include "tst_chatcomposer.moc"
