#include "agent/config/appsettings.h"
#include "agent/config/filesecretstore.h"
#include "agent/config/keyenvironment.h"
#include "agent/config/providerprofile.h"
#include "agent/config/secretstore.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcpserverinstall.h"
#include "agent/mcp/urlopener.h"
#include "agent/playground/playgroundrun.h"
#include "agent/providers/connectiontester.h"
#include "agent/providers/ollamaprobe.h"
#include "agent/session/agentstore.h"
#include "agent/session/autosaver.h"
#include "agent/session/chatsession.h"
#include "agent/session/processheap.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionlibrary.h"
#include "agent/tools/processgroups.h"
#include "app/cli/diffcommand.h"
#include "app/cli/evalcommand.h"
#include "app/cli/exportcommand.h"
#include "app/cli/knowledgecommand.h"
#include "app/cli/mcpcommand.h"
#include "app/cli/replaycommand.h"
#include "app/cli/runcommand.h"
#include "app/launch/provideroptions.h"
#include "translations/translations.h"
#include "ui/mainwindow.h"
#include "ui/session/sessionactions.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDesktopServices>
#include <QFileOpenEvent>
#include <QIcon>
#include <QNetworkAccessManager>
#include <QSettings>
#include <QTextStream>

#include <iterator>

#ifdef Q_OS_WIN
#include <cstdio>
#include <qt_windows.h>
#endif

using namespace Qt::StringLiterals;

namespace {

// macOS opens documents (a double-click in Finder, a drop on the Dock icon)
// with an event to the application, not with an argument.
class SessionFileOpener final : public QObject
{
public:
    explicit SessionFileOpener(Loopscope::Ui::SessionActions *actions)
        : m_actions(actions)
    {}

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::FileOpen)
            return QObject::eventFilter(watched, event);
        m_actions->openFile(static_cast<QFileOpenEvent *>(event)->file());
        return true;
    }

private:
    Loopscope::Ui::SessionActions *m_actions;
};

#ifdef Q_OS_WIN
// The executable is a GUI program on Windows, so it gets no console of its
// own: the command line's output goes to the console it was started from,
// unless it was redirected to a file or a pipe.
void attachToParentConsole()
{
    if (!::AttachConsole(ATTACH_PARENT_PROCESS))
        return;
    FILE *reopened = nullptr;
    if (!::GetStdHandle(STD_OUTPUT_HANDLE))
        freopen_s(&reopened, "CONOUT$", "w", stdout);
    if (!::GetStdHandle(STD_ERROR_HANDLE))
        freopen_s(&reopened, "CONOUT$", "w", stderr);
}
#endif

void describeApplication()
{
    QCoreApplication::setApplicationName(u"Loopscope"_s);
    QCoreApplication::setOrganizationName(u"Loopscope"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(LOOPSCOPE_VERSION));
    Loopscope::Translations::install();
}

// The headless commands: each runs on a QCoreApplication, without a display.
struct HeadlessCommand
{
    const char *name;  // the first argument that selects it
    const char *usage; // as the window's --help lists it
    int (*exec)(const QStringList &arguments);
};

template<typename Command>
int execCommand(const QStringList &arguments)
{
    return Command().exec(arguments);
}

constexpr HeadlessCommand HeadlessCommands[] = {
    {"run", "run", &execCommand<Loopscope::Cli::RunCommand>},
    {"replay", "replay", &execCommand<Loopscope::Cli::ReplayCommand>},
    {"diff", "diff", &execCommand<Loopscope::Cli::DiffCommand>},
    {"export", "export", &execCommand<Loopscope::Cli::ExportCommand>},
    {"mcp", "mcp add|remove|list|call", &execCommand<Loopscope::Cli::McpCommand>},
    {"eval", "eval", &execCommand<Loopscope::Cli::EvalCommand>},
    {"knowledge", "knowledge add|index|list|remove|search", &execCommand<Loopscope::Cli::KnowledgeCommand>},
};

const HeadlessCommand *headlessCommand(int argc, char *argv[])
{
    if (argc < 2)
        return nullptr;
    for (const HeadlessCommand &command : HeadlessCommands) {
        if (qstrcmp(argv[1], command.name) == 0)
            return &command;
    }
    return nullptr;
}

// "Headless commands: loopscope run, ..." for --help, wrapped as a terminal shows it.
QString headlessCommandList()
{
    constexpr qsizetype Width = 88;
    QString list = QCoreApplication::translate("main", "Headless commands:");
    qsizetype lineStart = 0;
    for (const HeadlessCommand &command : HeadlessCommands) {
        const bool last = &command == std::end(HeadlessCommands) - 1;
        const QString item
            = u"loopscope "_s + QString::fromLatin1(command.usage)
              + (last ? u' ' + QCoreApplication::translate("main", "(each with --help).") : u","_s);
        if (list.size() - lineStart + 1 + item.size() > Width) {
            list += u'\n';
            lineStart = list.size();
        } else {
            list += u' ';
        }
        list += item;
    }
    return list;
}

// The window's command line; --help and --version are answered from it
// before any display is needed.
void describeWindowOptions(QCommandLineParser &parser,
                           const Loopscope::Launch::ProviderOptions &providerOptions)
{
    parser.setApplicationDescription(
        QCoreApplication::translate("main",
                                    "Chat with an LLM agent and see, step by step, what its tool loop does.")
        + u'\n' + headlessCommandList());
    parser.addHelpOption();
    parser.addVersionOption();
    providerOptions.addTo(parser);
    parser.addPositionalArgument(
        u"session"_s,
        QCoreApplication::translate("main", "A saved session (*.loopscope.json) to open, or a "
                                            "loopscope://mcp/install link to add an MCP server."),
        u"[session|link]"_s);
}

bool asksForHelpOrVersion(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        for (const char *option : {"-h", "--help", "-?", "--help-all", "-v", "--version"}) {
            if (qstrcmp(argv[i], option) == 0)
                return true;
        }
    }
    return false;
}

int runWindow(QApplication &app)
{
    // One id for the desktop entry, the AppStream metainfo and the icon, so
    // that Wayland compositors and docks match the window to its launcher.
    QGuiApplication::setDesktopFileName(QStringLiteral(LOOPSCOPE_APP_ID));
    QIcon icon;
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256})
        icon.addFile(u":/icons/%1x%1/apps/"_s.arg(size) + QStringLiteral(LOOPSCOPE_APP_ID) + u".png"_s);
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral(LOOPSCOPE_APP_ID), icon));

    QCommandLineParser parser;
    const Loopscope::Launch::ProviderOptions providerOptions;
    describeWindowOptions(parser, providerOptions);
    parser.process(app);
    if (parser.positionalArguments().size() > 1) {
        QTextStream(stderr) << "loopscope: " << QApplication::translate("main", "open one session at a time")
                            << Qt::endl;
        return 2;
    }

    std::optional<Loopscope::ProviderProfile> commandLine;
    if (providerOptions.isAnySet(parser)) {
        QString error;
        commandLine = providerOptions.profile(parser, &error);
        if (!commandLine) {
            QTextStream(stderr) << "loopscope: " << error << Qt::endl;
            return 2;
        }
    }

    QSettings settings;
    Loopscope::ProviderProfileStore profiles(&settings);
    for (const Loopscope::ProviderProfile &profile : profiles.profiles())
        Loopscope::KeyEnvironment::take(profile.apiKeyEnv);
    Loopscope::AppSettings appSettings(&settings);
    // Keys live in the keychain; a profile the user chose it for, warned, keeps its key in this file.
    Loopscope::FileSecretStore keyFile(Loopscope::FileSecretStore::defaultPath());
    Loopscope::KeychainSecretStore secrets;
    secrets.setKeyFile(&keyFile);
    QNetworkAccessManager network;
    Loopscope::ChatSession session(&network);
    // An MCP server that asks for OAuth: the sign-in opens in the system browser ($BROWSER first), and
    // its tokens are kept in the keychain.
    const Loopscope::UrlOpener browser([](const QUrl &url) { return QDesktopServices::openUrl(url); });
    session.mcp()->setAuthorizationServices(&browser, &secrets);
    Loopscope::SessionDocument document(&session);
    // Every finished turn lands in the library, whatever happens to the process later.
    Loopscope::SessionLibrary library(Loopscope::SessionLibrary::defaultFolder());
    Loopscope::Autosaver autosaver(&session, library.folder());
    document.setAutosaver(&autosaver);
    autosaver.setLibrary(&library);
    library.refresh();

    // The window's network helpers, on the app's one QNetworkAccessManager.
    Loopscope::OllamaProbe ollamaProbe(&network);
    Loopscope::ConnectionTester connectionTester(&network);
    const Loopscope::Ui::NetworkHelpers helpers{&ollamaProbe, &connectionTester, [&network, &secrets] {
                                                    return new Loopscope::PlaygroundRun(&network, &secrets);
                                                }};
    // The user's agents (the Agents page); a file that cannot be read is said, and left as it is.
    Loopscope::AgentStore agents(Loopscope::AgentStore::defaultFolder());
    QString agentsProblem;
    agents.load(&agentsProblem);
    Loopscope::Ui::MainWindow window(
        {&session, &profiles, &appSettings, &secrets, helpers, &settings, &document, &library, &agents});
    SessionFileOpener fileOpener(window.sessionActions());
    app.installEventFilter(&fileOpener);
    window.show();
    if (!agentsProblem.isEmpty())
        window.showMessage(
            QApplication::translate("main", "Your agents could not be read: %1").arg(agentsProblem));
    // The desktop entry passes a URL (%u): a session as a file:// URL or a path, or an MCP install link.
    const QString argument = parser.positionalArguments().value(0);
    const QUrl link(argument);
    if (Loopscope::McpServerInstall::isInstallLink(link)) {
        window.start(commandLine);
        window.installMcpServer(link);
    } else {
        window.start(commandLine, link.isLocalFile() ? link.toLocalFile() : argument);
    }
    return QApplication::exec();
}

} // namespace

// The variables --api-key-env names, for any command.
QStringList keyVariablesOnCommandLine(int argc, char *argv[])
{
    QStringList names;
    for (int i = 1; i < argc; ++i) {
        const QByteArrayView argument(argv[i]);
        if (argument == "--api-key-env" && i + 1 < argc)
            names.append(QString::fromLocal8Bit(argv[++i]));
        else if (argument.startsWith("--api-key-env="))
            names.append(QString::fromLocal8Bit(argument.sliced(14)));
    }
    return names;
}

int main(int argc, char *argv[])
{
    // Before any thread runs: the keys leave the environment, which every command the model runs
    // could read through /proc/<this pid>/environ (KeyEnvironment).
    // What a command or an MCP server leaves orphaned is reparented to this process, not to init.
    Loopscope::ProcessGroups::becomeSubreaper();
    // A long session's threads would otherwise each keep their high-water mark of freed memory.
    Loopscope::ProcessHeap::keepOneArena();
    Loopscope::KeyEnvironment::takeAll(Loopscope::KeyEnvironment::wellKnownNames()
                                       + keyVariablesOnCommandLine(argc, argv));
#ifdef Q_OS_WIN
    if (argc > 1)
        attachToParentConsole();
#endif
    // Headless commands need no display: decide before any GUI object exists.
    if (const HeadlessCommand *command = headlessCommand(argc, argv)) {
        QCoreApplication app(argc, argv);
        describeApplication();
        return command->exec(QCoreApplication::arguments());
    }

    // QCommandLineParser answers these and exits: no display is needed for that.
    if (asksForHelpOrVersion(argc, argv)) {
        QCoreApplication app(argc, argv);
        describeApplication();
        QCommandLineParser parser;
        const Loopscope::Launch::ProviderOptions providerOptions;
        describeWindowOptions(parser, providerOptions);
        parser.process(app);
    }

    QApplication app(argc, argv);
    describeApplication();
    return runWindow(app);
}
