#pragma once

#include <QString>

namespace Loopscope {

class FakeHttpServer;

/*!
    A believable OpenAI-compatible model for window tests and screenshots: it
    streams a three-iteration turn over real SSE. Iteration 1 calls the
    built-in calculator and current_time in parallel, iteration 2 calls the
    calculator with the first result, iteration 3 answers in Markdown (a
    heading, a table and a code block) with the values the tools returned.
    Any later question gets a short streamed answer.
*/
class DemoConversation final
{
public:
    static constexpr const char *question
        = "What is 17% of 2,340, what is left after it, and what time is it in UTC?";

    // Installs the handler; pieceDelayMs paces the streamed pieces.
    static void install(FakeHttpServer &server, int pieceDelayMs = 5);

    /*
        A turn in which the model gets its calls wrong and recovers from the
        errors the loop feeds back: iteration 1 calls the calculator with a
        misnamed argument and a weather tool that does not exist, in
        parallel; iteration 2 calls the calculator again as its schema says;
        iteration 3 answers, saying what it could not do.
    */
    static constexpr const char *recoveryQuestion = "What is 15% of 80, and what is the weather in Paris?";
    static void installRecovery(FakeHttpServer &server, int pieceDelayMs = 5);

    /*
        A turn with MCP tools from server-everything: iteration 1 calls its
        long-running operation (which reports progress) and its echo tool in
        parallel, iteration 2 answers with what they returned.
    */
    static constexpr const char *mcpQuestion
        = "Run the MCP server's long operation and echo “hello” meanwhile.";
    static void installMcp(FakeHttpServer &server, int pieceDelayMs = 5);

    /*
        A turn that changes a file: iteration 1 edits notes.md in the workspace
        (one line replaced: the approval card shows it as a diff) and runs a
        command on it, iteration 2 answers with what the command printed.
    */
    static constexpr const char *editQuestion
        = "Mark the release task in notes.md as done, then count the open tasks.";
    static constexpr const char *editFileBefore = "# Release notes\n\n"
                                                  "- [ ] write the changelog\n"
                                                  "- [ ] tag v1.4\n"
                                                  "- [ ] publish the release\n"
                                                  "- [x] fix the flaky test\n";
    static void installEdit(FakeHttpServer &server, int pieceDelayMs = 5);
};

} // namespace Loopscope
