#include "ui/chat/approvalcard.h"
#include "ui/chat/diffview.h"

#include "translations/translations.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace Loopscope;
using namespace Loopscope::Ui;
using namespace Qt::StringLiterals;

namespace {

QString json(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// The diff as the card shows it: the gutter's numbers, then the line.
QStringList shownLines(const DiffView *view)
{
    QStringList lines;
    const QStringList text = view->toPlainText().split(u'\n');
    for (int i = 0; i < text.size(); ++i)
        lines.append(QString(view->gutterText(i) + u" | "_s + text.at(i)));
    return lines;
}

} // namespace

class ApprovalCardTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // A card for an edit of src/main.txt ("three" → "3"), shown, its preview in.
    std::unique_ptr<ApprovalCard> editOfThreeShown()
    {
        auto card = std::make_unique<ApprovalCard>(
            u"edit_file"_s,
            json({{u"path"_s, u"src/main.txt"_s}, {u"old_text"_s, u"three"_s}, {u"new_text"_s, u"3"_s}}),
            QJsonObject(), Workspace(m_dir.path()));
        card->show();
        if (!QTest::qWaitFor([&] { return !card->isPreviewPending(); }))
            return nullptr;
        return card;
    }

private slots:
    void initTestCase()
    {
        Translations::install(); // the plural forms of the summaries
    }

    void init()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir(m_dir.path()).mkpath(u"src"_s));
        QFile file(m_dir.filePath(u"src/main.txt"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("one\ntwo\nthree\nfour\nfive\n");
    }

    void aNewFileShowsAsAllAddedWithNewLineNumbers()
    {
        ApprovalCard card(u"write_file"_s,
                          json({{u"path"_s, u"src/notes.txt"_s}, {u"content"_s, u"alpha\nbeta\n"_s}}), {},
                          Workspace(m_dir.path()));
        card.resize(700, 400);
        card.show();
        QTRY_VERIFY(!card.isPreviewPending());

        QVERIFY(card.diffView()->isVisibleTo(&card));
        QCOMPARE(shownLines(card.diffView()),
                 (QStringList{u" | @@ -0,0 +1,2 @@"_s, u"  1 | +alpha"_s, u"  2 | +beta"_s}));
        QVERIFY2(card.previewSummary()->text().contains(u"new file, 2 lines"_s),
                 qPrintable(card.previewSummary()->text()));
        QVERIFY(card.previewSummary()->text().contains(u"src/notes.txt"_s));
        // The JSON waits under "Edit arguments".
        QVERIFY(!card.editor()->isVisibleTo(&card));
        QVERIFY(card.editArgumentsToggle()->isVisibleTo(&card));
        QVERIFY(card.previewText().contains(u"+alpha"_s));
    }

    void anEditShowsRemovedAndAddedLinesWithBothNumbers()
    {
        const auto shown = editOfThreeShown();
        QVERIFY(shown);
        ApprovalCard &card = *shown;

        QCOMPARE(shownLines(card.diffView()),
                 (QStringList{u" | @@ -1,5 +1,5 @@"_s, u"1 1 |  one"_s, u"2 2 |  two"_s, u"3   | -three"_s,
                              u"  3 | +3"_s, u"4 4 |  four"_s, u"5 5 |  five"_s}));
        QVERIFY2(card.previewSummary()->text().contains(u"2 lines changed (+1 −1)"_s),
                 qPrintable(card.previewSummary()->text()));
    }

    void editingTheArgumentsUpdatesThePreview()
    {
        const auto shown = editOfThreeShown();
        QVERIFY(shown);
        ApprovalCard &card = *shown;
        QSignalSpy changed(&card, &ApprovalCard::previewChanged);

        QTest::mouseClick(card.editArgumentsToggle(), Qt::LeftButton);
        QVERIFY(card.editor()->isVisibleTo(&card));
        card.editor()->setPlainText(
            json({{u"path"_s, u"src/main.txt"_s}, {u"old_text"_s, u"five"_s}, {u"new_text"_s, u"FIVE"_s}}));
        QTRY_COMPARE(changed.size(), 1);
        QVERIFY2(card.diffView()->toPlainText().contains(u"+FIVE"_s),
                 qPrintable(card.diffView()->toPlainText() + card.previewSummary()->text()));
        QVERIFY(!card.diffView()->toPlainText().contains(u"-three"_s));

        // An edit that does not apply shows why instead of a diff, and can still be denied.
        card.editor()->setPlainText(
            json({{u"path"_s, u"src/main.txt"_s}, {u"old_text"_s, u"six"_s}, {u"new_text"_s, u"6"_s}}));
        QTRY_COMPARE(changed.size(), 2);
        QVERIFY(!card.diffView()->isVisibleTo(&card));
        QVERIFY2(card.previewSummary()->text().contains(u"not found"_s, Qt::CaseInsensitive),
                 qPrintable(card.previewSummary()->text()));
        QVERIFY(card.denyButton()->isEnabled());
    }

    void aCommandShowsTheLineTheFolderAndTheTimeoutWithAWarning()
    {
        ApprovalCard card(u"run_command"_s, json({{u"command"_s, u"git status"_s}, {u"timeout_s"_s, 30}}), {},
                          Workspace(m_dir.path()));
        card.show();
        QTRY_VERIFY(!card.isPreviewPending());
        const auto labels = card.findChildren<QLabel *>();
        const auto shows = [&](const QString &text) {
            return std::any_of(labels.cbegin(), labels.cend(), [&](const QLabel *label) {
                return label->isVisibleTo(&card) && label->text().contains(text);
            });
        };
        QVERIFY(shows(u"$ git status"_s));
        QVERIFY(shows(u"30 seconds"_s));
        QVERIFY(shows(QDir(m_dir.path()).canonicalPath().toHtmlEscaped()));
        QVERIFY(shows(u"anything you can"_s));
        QVERIFY(!card.diffView()->isVisibleTo(&card));
    }

    void alwaysAllowOffersTheScopeOfTheCall()
    {
        ApprovalCard card(u"run_command"_s, json({{u"command"_s, u"git status"_s}}), {},
                          Workspace(m_dir.path()));
        QTRY_VERIFY(!card.isPreviewPending());
        QSignalSpy always(&card, &ApprovalCard::alwaysAllowRequested);
        QVERIFY(card.alwaysAllowMenu());
        QCOMPARE(card.alwaysAllowButton()->menu(), card.alwaysAllowMenu());
        const QList<QAction *> choices = card.alwaysAllowMenu()->actions();
        QCOMPARE(choices.size(), 3); // "git status", "git", everywhere
        QVERIFY2(choices.at(1)->text().contains(u"“git”"_s), qPrintable(choices.at(1)->text()));
        choices.at(0)->trigger();
        choices.at(1)->trigger();
        choices.at(2)->trigger();
        QCOMPARE(always.size(), 3);
        QCOMPARE(always.at(0).at(0).value<ApprovalScope>(),
                 (ApprovalScope{ApprovalScope::Kind::CommandPrefix, u"git status"_s}));
        QCOMPARE(always.at(1).at(0).value<ApprovalScope>(),
                 (ApprovalScope{ApprovalScope::Kind::CommandPrefix, u"git"_s}));
        QCOMPARE(always.at(2).at(0).value<ApprovalScope>(), ApprovalScope::tool());
    }

    void aToolWithoutAPreviewKeepsTheArgumentEditorOpen()
    {
        ApprovalCard card(u"add"_s, u"{\"a\":1}"_s, {});
        QSignalSpy always(&card, &ApprovalCard::alwaysAllowRequested);
        QVERIFY(!card.editArgumentsToggle()->isVisibleTo(&card));
        QVERIFY(card.editor()->isVisibleTo(&card));
        QVERIFY(!card.isPreviewPending());
        QVERIFY(!card.alwaysAllowButton()->menu());
        QTest::mouseClick(card.alwaysAllowButton(), Qt::LeftButton);
        QCOMPARE(always.size(), 1);
    }
};

QTEST_MAIN(ApprovalCardTest)
#include "tst_approvalcard.moc"
