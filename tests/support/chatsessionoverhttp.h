#pragma once

#include "agent/session/chatsession.h"
#include "tests/support/fakehttpserver.h"

#include <QNetworkAccessManager>

#include <memory>

namespace Loopscope::Testing {

/*
    What a ChatSession test over real HTTP starts each test function with: a fake
    OpenAI-compatible server listening on 127.0.0.1, a network access manager and
    a session on it with nothing applied yet. A test class derives from it, calls
    startSession() in init() and endSession() in cleanup(); one set-up for every
    such test, so a change to how a session is made is made once.
*/
class ChatSessionOverHttp
{
protected:
    // False when the server cannot listen: init() fails the test with QVERIFY.
    [[nodiscard]] bool startSession()
    {
        m_server = std::make_unique<FakeHttpServer>();
        if (!m_server->listen())
            return false;
        m_network = std::make_unique<QNetworkAccessManager>();
        m_session = std::make_unique<ChatSession>(m_network.get());
        return true;
    }

    // The session before the network it uses, the server last: nothing answers a gone client.
    void endSession()
    {
        m_session.reset();
        m_network.reset();
        m_server.reset();
    }

    std::unique_ptr<FakeHttpServer> m_server;
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<ChatSession> m_session;
};

} // namespace Loopscope::Testing
