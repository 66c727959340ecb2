// The sessions sidebar: the library beside the chat, with New, Rename and Delete carried out
// on the open conversation and on the library's files.

#include "agent/session/autosaver.h"
#include "agent/session/chatsession.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionlibrary.h"
#include "agent/transcript/transcript.h"
#include "translations/translations.h"
#include "ui/library/librarysidebar.h"
#include "ui/library/sessionlibrarypanel.h"
#include "ui/session/sessionactions.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

Transcript transcript(const QString &title, int minutesAfterBase, const QStringList &texts)
{
    Transcript result;
    result.title = title;
    result.created = QDateTime(QDate(2026, 11, 20), QTime(9, 0), Qt::UTC);
    result.updated = result.created.addSecs(minutesAfterBase * 60);
    for (qsizetype i = 0; i < texts.size(); ++i)
        result.messages.append(i % 2 == 0 ? Message::user(texts.at(i)) : Message::assistant(texts.at(i)));
    return result;
}

QTreeWidgetItem *rowTitled(const QTreeWidget *list, const QString &title)
{
    const QList<QTreeWidgetItem *> found = list->findItems(title, Qt::MatchExactly, 0);
    return found.isEmpty() ? nullptr : found.first();
}

QStringList titles(const QTreeWidget *list)
{
    QStringList texts;
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        texts.append(list->topLevelItem(i)->text(0));
    return texts;
}

} // namespace

class LibrarySidebarTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { Translations::install(); }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_folder = m_dir->filePath(u"sessions"_s);
        QVERIFY(QDir().mkpath(m_folder));
        save(u"20261120-090000-aaaa"_s,
             transcript(u"Pesto"_s, 10, {u"How do I make pesto?"_s, u"Blend basil."_s}));
        save(u"20261120-093000-bbbb"_s, transcript(u"Bread"_s, 30, {u"Which flour?"_s, u"Bread flour."_s}));
        m_settings = std::make_unique<QSettings>(m_dir->filePath(u"state.ini"_s), QSettings::IniFormat);
        m_session = std::make_unique<ChatSession>(&m_network);
        m_document = std::make_unique<SessionDocument>(m_session.get());
        m_autosaver = std::make_unique<Autosaver>(m_session.get(), m_folder);
        m_document->setAutosaver(m_autosaver.get());
        m_library = std::make_unique<SessionLibrary>(m_folder);
        m_window = std::make_unique<QWidget>();
        // As wide as the app's window: the sidebar is shown.
        m_window->resize(1280, 800);
        m_actions = new Ui::SessionActions(m_document.get(), m_settings.get(), m_window.get());
        createSidebar();
        m_library->refresh();
        QTRY_COMPARE(list()->topLevelItemCount(), 2);
    }

    void cleanup()
    {
        m_window.reset();
        m_library.reset();
        m_document.reset();
        m_autosaver.reset();
        m_session.reset();
        m_settings.reset();
        m_dir.reset();
    }

    void theListIsATestedModelOfTitlesNewestFirst()
    {
        QAbstractItemModelTester tester(list()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(titles(list()), (QStringList{u"Bread"_s, u"Pesto"_s}));
        m_library->refresh();
        QTRY_COMPARE(titles(list()), (QStringList{u"Bread"_s, u"Pesto"_s}));
    }

    void renamingASessionStoresItsTitleInsideItsFileAndKeepsTheFileName_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("stored");
        QTest::newRow("a plain title") << u"Basil sauce"_s << u"Basil sauce"_s;
        QTest::newRow("spaces around it are dropped")
            << u"  Pesto, Genoa style  "_s << u"Pesto, Genoa style"_s;
        QTest::newRow("letters a file name could not hold") << u"Pesto: “a/b” ✓"_s << u"Pesto: “a/b” ✓"_s;
    }

    void renamingASessionStoresItsTitleInsideItsFileAndKeepsTheFileName()
    {
        QFETCH(QString, typed);
        QFETCH(QString, stored);
        const QStringList filesBefore = files();
        QSignalSpy renamed(m_library.get(), &SessionLibrary::renameFinished);
        renameByKeyboard(u"Pesto"_s, typed);
        QTRY_COMPARE(renamed.size(), 1);
        QCOMPARE(renamed.at(0).at(2).toString(), QString());
        QTRY_VERIFY(rowTitled(list(), stored));
        QVERIFY(!rowTitled(list(), u"Pesto"_s));
        QCOMPARE(files(), filesBefore);

        // As a new start of the app sees it.
        const TranscriptLoadResult reopened = TranscriptFile::load(pathOf(u"20261120-090000-aaaa"_s));
        QVERIFY2(reopened.transcript, qPrintable(reopened.error));
        QCOMPARE(reopened.transcript->title, stored);
        QCOMPARE(reopened.transcript->messages.size(), 2);
        SessionLibrary again(m_folder);
        again.refresh();
        QTRY_COMPARE(again.entries().size(), 2);
        QCOMPARE(again.entries().at(1).title, stored);
    }

    void anEmptyTitleIsNotStored()
    {
        QSignalSpy renamed(m_library.get(), &SessionLibrary::renameFinished);
        renameByKeyboard(u"Pesto"_s, u"   "_s);
        QTest::qWait(100);
        QCOMPARE(renamed.size(), 0);
        QVERIFY(rowTitled(list(), u"Pesto"_s));
    }

    void renamingTheOpenSessionKeepsItsUnsavedTurnsAndRetitlesTheWindow()
    {
        const QString path = pathOf(u"20261120-090000-aaaa"_s);
        openInTheWindow(path);
        // The file falls behind the window: the conversation has turns the file does not.
        save(u"20261120-090000-aaaa"_s, transcript(u"Pesto"_s, 10, {u"An older question"_s, u"Old."_s}));
        const QList<Message> inTheWindow = m_session->agent()->history();

        QSignalSpy autosaved(m_document.get(), &SessionDocument::autosaved);
        renameByKeyboard(u"Pesto"_s, u"Pesto for four"_s);
        QTRY_COMPARE(autosaved.size(), 1);
        QCOMPARE(m_session->title(), u"Pesto for four"_s);
        QCOMPARE(m_document->displayName(), u"Pesto for four"_s);
        QVERIFY(!m_document->isModified());

        const TranscriptLoadResult reopened = TranscriptFile::load(path);
        QVERIFY2(reopened.transcript, qPrintable(reopened.error));
        QCOMPARE(reopened.transcript->title, u"Pesto for four"_s);
        QCOMPARE(reopened.transcript->messages, inTheWindow);
        QTRY_VERIFY(rowTitled(list(), u"Pesto for four"_s));
        QCOMPARE(files().size(), 2);
    }

    void deletingASessionRemovesItsFileAndItsRow_data()
    {
        QTest::addColumn<bool>("open");
        QTest::newRow("another session") << false;
        QTest::newRow("the open session, which gives way to a new one") << true;
    }

    void deletingASessionRemovesItsFileAndItsRow()
    {
        QFETCH(bool, open);
        const QString path = pathOf(u"20261120-093000-bbbb"_s);
        openInTheWindow(open ? path : pathOf(u"20261120-090000-aaaa"_s));
        showWindow();
        list()->setFocus();
        list()->setCurrentItem(rowTitled(list(), u"Bread"_s));
        QTest::keyClick(list(), Qt::Key_Delete);
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = panel()->findChild<QMessageBox *>(u"deleteSessionConfirmation"_s)));
        box->findChild<QPushButton *>(u"confirmDeleteButton"_s)->click();

        QTRY_VERIFY(!QFileInfo::exists(path));
        QTRY_COMPARE(titles(list()), QStringList{u"Pesto"_s});
        if (open) {
            QVERIFY(m_session->agent()->history().isEmpty());
            QVERIFY(m_document->path().isEmpty());
            QVERIFY(m_document->libraryPath().isEmpty());
        } else {
            // The conversation in the window is not touched.
            QCOMPARE(m_session->title(), u"Pesto"_s);
            QCOMPARE(m_session->agent()->history().size(), 2);
        }
    }

    void newStartsAnEmptyConversation()
    {
        openInTheWindow(pathOf(u"20261120-090000-aaaa"_s));
        QVERIFY(!m_session->agent()->history().isEmpty());
        panel()->newAction()->trigger();
        QVERIFY(m_session->agent()->history().isEmpty());
        QVERIFY(m_session->title().isEmpty());
        QVERIFY(m_document->path().isEmpty());
        QCOMPARE(panel()->openSession(), QString());
        QCOMPARE(files().size(), 2);
    }

    void theOpenSessionIsShownInBold()
    {
        openInTheWindow(pathOf(u"20261120-093000-bbbb"_s));
        QTRY_VERIFY(rowTitled(list(), u"Bread"_s)->font(0).bold());
        QVERIFY(!rowTitled(list(), u"Pesto"_s)->font(0).bold());
    }

    void theSidebarCollapsesAndRemembersItsWidthAndState()
    {
        QSplitter *splitter = m_sidebar->splitter();
        m_window->resize(1000, 600);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_sidebar->isShown());
        QVERIFY(panel()->isVisible());
        splitter->setSizes({333, 667});
        emit splitter->splitterMoved(333, 1);

        m_sidebar->toggleAction()->trigger();
        QVERIFY(!m_sidebar->isShown());
        QVERIFY(!panel()->isVisible());

        // The next window, as the next start of the app makes it.
        m_window.reset();
        m_window = std::make_unique<QWidget>();
        m_actions = new Ui::SessionActions(m_document.get(), m_settings.get(), m_window.get());
        createSidebar();
        m_window->resize(1000, 600);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(!m_sidebar->isShown());
        QVERIFY(!panel()->isVisible());
        m_sidebar->toggleAction()->trigger();
        QVERIFY(panel()->isVisible());
        QTRY_COMPARE(m_sidebar->splitter()->sizes().value(0), 333);
    }

    void untilTheUserChoosesTheSidebarIsShownOnlyInAWideWindow_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("shown");
        QTest::newRow("900 px: collapsed, the chat needs the room") << 900 << false;
        QTest::newRow("just too narrow") << Ui::LibrarySidebar::WideWindow - 1 << false;
        QTest::newRow("wide enough") << Ui::LibrarySidebar::WideWindow << true;
        QTest::newRow("1280 px") << 1280 << true;
        QTest::newRow("1920 px") << 1920 << true;
    }
    void untilTheUserChoosesTheSidebarIsShownOnlyInAWideWindow()
    {
        QFETCH(int, width);
        QFETCH(bool, shown);
        m_window->resize(width, 600);
        showWindow();
        QTRY_COMPARE(m_sidebar->isShown(), shown);
        QTRY_COMPARE(panel()->isVisible(), shown);
        QVERIFY(!m_settings->contains(u"library/sidebarShown"_s));

        // The window's width decides again when it changes...
        m_window->resize(shown ? 800 : 1400, 600);
        QTRY_COMPARE(panel()->isVisible(), !shown);
        QCOMPARE(m_sidebar->isShown(), !shown);

        // ... until the user chooses, which no width overrules.
        m_sidebar->toggleAction()->trigger();
        QCOMPARE(m_sidebar->isShown(), shown);
        m_window->resize(shown ? 1400 : 800, 600);
        m_window->resize(width, 600);
        QTRY_COMPARE(m_window->width(), width);
        QTRY_COMPARE(panel()->isVisible(), shown);
        QCOMPARE(m_sidebar->isShown(), shown);
        QCOMPARE(m_settings->value(u"library/sidebarShown"_s).toBool(), shown);
    }

    void anUnreadableFileIsMarkedAndCannotBeRenamed()
    {
        const QString broken = m_dir->filePath(u"sessions/20261121-000000-cccc.loopscope.json"_s);
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"formatVersion\": 3, \"messages\": [");
        file.close();
        m_library->refresh();
        QTRY_COMPARE(list()->topLevelItemCount(), 3);
        QTreeWidgetItem *row = rowTitled(list(), QFileInfo(broken).fileName());
        QVERIFY(row);
        QVERIFY(!row->icon(0).isNull());
        QVERIFY(!(row->flags() & Qt::ItemIsEditable));
        list()->setCurrentItem(row);
        QVERIFY(!panel()->renameAction()->isEnabled());
        QVERIFY(panel()->deleteAction()->isEnabled());
        QVERIFY(QFileInfo::exists(broken));
    }

    void datesReadAsAChatListDatesThem_data()
    {
        QTest::addColumn<QDateTime>("when");
        QTest::addColumn<QString>("expected");
        const QDateTime now(QDate(2026, 11, 28), QTime(15, 0));
        QTest::newRow("today") << now.addSecs(-3600) << u"Today "_s;
        QTest::newRow("yesterday") << now.addDays(-1) << u"Yesterday "_s;
        QTest::newRow("three days ago") << now.addDays(-3) << u"3 days ago"_s;
        QTest::newRow("a month ago") << now.addDays(-30)
                                     << QLocale().toString(QDate(2026, 10, 29), QLocale::ShortFormat);
    }

    void datesReadAsAChatListDatesThem()
    {
        QFETCH(QDateTime, when);
        QFETCH(QString, expected);
        const QDateTime now(QDate(2026, 11, 28), QTime(15, 0));
        QVERIFY2(Ui::SessionLibraryPanel::relativeDate(when, now).startsWith(expected),
                 qPrintable(Ui::SessionLibraryPanel::relativeDate(when, now)));
    }

private:
    void createSidebar()
    {
        m_sidebar = new Ui::LibrarySidebar(m_library.get(), m_actions, m_settings.get(), m_window.get());
        auto *content = new QWidget;
        auto *layout = new QVBoxLayout(m_window.get());
        layout->addWidget(m_sidebar->wrap(content));
    }

    Ui::SessionLibraryPanel *panel() const { return m_sidebar->panel(); }
    QTreeWidget *list() const { return panel()->sessionList(); }

    QString pathOf(const QString &id) const
    {
        return QDir(m_folder).absoluteFilePath(id + SessionLibrary::fileSuffix());
    }

    void save(const QString &id, const Transcript &saved)
    {
        QString error;
        QVERIFY2(TranscriptFile::save(saved, pathOf(id), &error), qPrintable(error));
    }

    QStringList files() const { return QDir(m_folder).entryList(QDir::Files, QDir::Name); }

    void openInTheWindow(const QString &path)
    {
        QSignalSpy opened(m_document.get(), &SessionDocument::opened);
        m_document->open(path);
        QTRY_COMPARE(opened.size(), 1);
        QCOMPARE(QFileInfo(m_document->libraryPath()), QFileInfo(path));
    }

    void showWindow()
    {
        if (m_window->isVisible())
            return;
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    // Select the row, F2, type, Enter: as a user renames.
    void renameByKeyboard(const QString &title, const QString &typed)
    {
        showWindow();
        QTreeWidgetItem *row = rowTitled(list(), title);
        QVERIFY(row);
        list()->setFocus();
        list()->setCurrentItem(row);
        QTest::keyClick(list(), Qt::Key_F2);
        QLineEdit *editor = nullptr;
        QTRY_VERIFY((editor = qobject_cast<QLineEdit *>(QApplication::focusWidget())));
        editor->selectAll();
        // keyClicks() types ASCII only.
        editor->insert(typed);
        QTest::keyClick(editor, Qt::Key_Return);
    }

    QNetworkAccessManager m_network;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_folder;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ChatSession> m_session;
    std::unique_ptr<SessionDocument> m_document;
    std::unique_ptr<Autosaver> m_autosaver;
    std::unique_ptr<SessionLibrary> m_library;
    std::unique_ptr<QWidget> m_window;
    Ui::SessionActions *m_actions = nullptr;
    Ui::LibrarySidebar *m_sidebar = nullptr;
};

QTEST_MAIN(LibrarySidebarTest)
#include "tst_librarysidebar.moc"
